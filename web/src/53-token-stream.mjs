// A live preview of generation at the predicted speed: nothing for the time to first token, then
// text at the decode rate until the answer length is reached. Text is cut at 4 characters per
// token, the usual rule of thumb for English (OpenAI, "What are tokens and how to count them":
// https://help.openai.com/en/articles/4936856), so what appears is about what the model would write.
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;
const CHARS_PER_TOKEN = 4;
const ANSWER_TOKENS = 256;

// Tokens visible `elapsed` seconds after the request, at `rate` tokens/s after `ttft` seconds.
function tokensAt(elapsed, ttft, rate) {
  return Math.min(ANSWER_TOKENS, Math.max(0, Math.floor((elapsed - ttft) * rate)));
}

// The preview's controls and text; update(decode tokens/s, ttft s) follows every estimate.
LlmCalc.tokenStream = function (lang) {
  const t = LlmCalc.i18n.translator(lang);
  const f = LlmCalc.i18n.formatter(lang);
  const button = el('button', { type: 'button', id: 'stream-button', text: t('stream_play') });
  const status = el('p', { class: 'hint', 'data-testid': 'stream-status', role: 'status' });
  const output = el('p', { class: 'stream', 'data-testid': 'stream', 'aria-hidden': 'true' });
  let rate = 0;
  let ttft = 0;
  let frame = 0;

  function stop() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    button.textContent = t('stream_play');
  }

  function run(started) {
    const elapsed = (performance.now() - started) / 1000;
    const tokens = tokensAt(elapsed, ttft, rate);
    const sample = t('stream_sample');
    const chars = tokens * CHARS_PER_TOKEN;
    output.textContent = sample.repeat(Math.ceil(chars / sample.length) || 1).slice(0, chars);
    output.scrollTop = output.scrollHeight;
    output.dataset.tokens = String(tokens);
    output.dataset.elapsedMs = String(Math.round(elapsed * 1000));
    status.textContent = tokens > 0
      ? f.integer(tokens) + ' tokens · ' + f.seconds(elapsed) + ' s'
      : t('stream_waiting') + ' · ' + f.seconds(elapsed) + ' s';
    if (tokens >= ANSWER_TOKENS) {
      stop();
      return;
    }
    frame = requestAnimationFrame(() => run(started));
  }

  button.addEventListener('click', () => {
    if (frame) {
      stop();
      return;
    }
    output.dataset.rate = String(rate);
    output.dataset.ttftMs = String(Math.round(ttft * 1000));
    button.textContent = t('stream_stop');
    run(performance.now());
  });

  return {
    element: el('div', { class: 'stream-preview' }, el('div', { class: 'row' }, button, status), output),
    update(decodeTokensPerS, ttftS) {
      stop();
      rate = decodeTokensPerS;
      ttft = ttftS > 0 ? ttftS : 0;
      const usable = isFinite(rate) && rate > 0;
      button.disabled = !usable;
      status.textContent = usable
        ? LlmCalc.i18n.sentence(lang, 'stream', {
          tokens: f.integer(ANSWER_TOKENS), rate: f.speed(rate),
          total: f.seconds(ttft + ANSWER_TOKENS / rate) })
        : '—';
    },
  };
};
