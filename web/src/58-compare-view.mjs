// Side-by-side comparison (issue #21 item 13): "Pin" keeps the configuration on screen (up to
// six) with its figures, each row a link that reopens it; the pins live in this page only.
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;
const MAX_PINS = 6;

LlmCalc.compareView = function (t) {
  const pins = [];
  const list = el('div', { class: 'compare' });
  const button = el('button', { type: 'button', id: 'pin-button', text: t('pin_button') });
  const element = el('div', { class: 'card', id: 'compare' }, el('h2', { text: t('compare_title') }),
    el('p', { class: 'hint', text: t('compare_hint') }), button, list);

  function draw(f) {
    LlmCalc.dom.clear(list);
    if (!pins.length) return;
    const columns = [
      [t('model'), (p) => el('a', { href: p.hash, text: p.label })],
      [t('verdict'), (p) => t(p.result.memory.verdict)],
      [t('total'), (p) => f.gib(p.result.memory.total_bytes) + ' / ' + f.gib(p.result.memory.usable_bytes)],
      [t('decode'), (p) => (p.result.memory.verdict === 'oom' ? '—' : f.speed(p.result.decode.tokens_per_s) + ' ' + t('tokens_per_s'))],
      [t('ttft'), (p) => (p.result.memory.verdict === 'oom' || !(p.result.prefill.ttft_s > 0) ? '—' : f.seconds(p.result.prefill.ttft_s) + ' ' + t('seconds'))],
      [t('max_context_short'), (p) => f.integer(p.result.memory.max_context_tokens)],
      ['', (p) => {
        const remove = el('button', { type: 'button', class: 'remove', text: t('remove'), 'aria-label': t('remove') + ' ' + p.label });
        remove.addEventListener('click', () => { pins.splice(pins.indexOf(p), 1); draw(f); });
        return remove;
      }],
    ];
    const head = el('tr', {}, ...columns.map(([label]) => el('th', { scope: 'col', text: label })));
    const body = el('tbody', {}, ...pins.map((p) => el('tr', {}, ...columns.map(([, cell]) => {
      const content = cell(p);
      return el('td', {}, typeof content === 'string' ? content : content);
    }))));
    list.appendChild(el('div', { class: 'table-wrap' }, el('table', { class: 'rank', id: 'compare-table' }, el('thead', {}, head), body)));
  }

  return {
    element: element,
    // onPin() -> { label, hash, result } of the configuration on screen, or null.
    bind(onPin, formatter) {
      button.addEventListener('click', () => {
        const pin = onPin();
        if (!pin) return;
        if (pins.length >= MAX_PINS) pins.shift();
        pins.push(pin);
        draw(formatter());
      });
    },
  };
};
