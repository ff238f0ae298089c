// "What runs on this device": every catalog model ranked by the core's rank(), as a sortable
// table whose rows link into the calculator (a share-URL hash).
(function (LlmCalc) {
  'use strict';

  const el = LlmCalc.dom.el;

  const COLUMNS = [
    { key: 'name', label: 'model', value: (r) => r.name },
    { key: 'weights', label: 'weights', value: (r) => r.bits_per_weight },
    { key: 'verdict', label: 'verdict', value: (r) => ({ comfortable: 0, tight: 1, oom: 2 })[r.verdict] },
    { key: 'decode', label: 'decode', value: (r) => r.decode.tokens_per_s },
    { key: 'prefill', label: 'prefill', value: (r) => r.prefill.tokens_per_s },
    { key: 'context', label: 'max_context', value: (r) => r.max_context_tokens },
    { key: 'params', label: 'params_total', value: (r) => r.params_total },
  ];

  // Renders into `container`; `state` is the calculator state (device, count, engine, context).
  function renderRankView(container, core, state, t, f, minBits) {
    LlmCalc.dom.clear(container);
    const request = LlmCalc.state.toRequest(state);
    delete request.model;
    delete request.weights;
    delete request.gpu_layers;
    delete request.cpu_moe_layers;
    request.min_bits = minBits || 4;
    const answer = core.rank(request);
    if (!answer.ok) {
      container.appendChild(el('p', { class: 'error', text: answer.issues.map((i) => i.message).join(' ') }));
      return;
    }
    const rows = answer.result.rows.slice();
    let sortKey = 'verdict';
    let ascending = true;
    const filter = el('input', { type: 'search', id: 'rank-filter', placeholder: t('filter'), 'aria-label': t('filter') });
    const quality = el('select', { id: 'rank-min-bits', 'aria-label': t('min_bits') },
      ...[8, 6, 5, 4, 3, 2].map((bits) => el('option', { value: bits, text: t('min_bits') + ': ' + bits })));
    quality.value = String(request.min_bits);
    quality.addEventListener('change', () => renderRankView(container, core, state, t, f, Number(quality.value)));
    const table = el('table', { class: 'rank', id: 'rank-table' });
    const head = el('tr');
    COLUMNS.forEach((column) => {
      const button = el('button', { type: 'button', 'data-sort': column.key, text: t(column.label) });
      button.addEventListener('click', () => {
        ascending = sortKey === column.key ? !ascending : column.key === 'name' || column.key === 'verdict';
        sortKey = column.key;
        draw();
      });
      head.appendChild(el('th', { scope: 'col' }, button));
    });
    const body = el('tbody');
    table.appendChild(el('thead', {}, head));
    table.appendChild(body);
    filter.addEventListener('input', draw);

    function draw() {
      const column = COLUMNS.find((c) => c.key === sortKey);
      const needle = filter.value.toLowerCase();
      const shown = rows.filter((r) => !needle || (r.name + ' ' + r.family + ' ' + (r.license || '')).toLowerCase().indexOf(needle) >= 0);
      shown.sort((a, b) => {
        const x = column.value(a);
        const y = column.value(b);
        const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
        return ascending ? order : -order;
      });
      LlmCalc.dom.clear(body);
      shown.forEach((r) => {
        const link = el('a', { href: LlmCalc.state.encodeHash(Object.assign({}, state, { model: r.model, weights: r.weights, ctx: r.context_tokens })),
                               text: r.name });
        body.appendChild(el('tr', { 'data-model': r.model },
          el('td', {}, link),
          el('td', { text: r.weights + ' (' + f.number(r.bits_per_weight, 2) + ')' }),
          el('td', { class: 'verdict-cell ' + r.verdict, text: t(r.verdict) + (r.offload
            ? ' · ' + (r.offload.cpu_moe_layers ? '--n-cpu-moe ' + r.offload.cpu_moe_layers : '-ngl ' + r.offload.gpu_layers) : '') }),
          el('td', { text: f.speed(r.decode.tokens_per_s) + ' (' + f.speed(r.decode.low) + '–' + f.speed(r.decode.high) + ')' }),
          el('td', { text: f.speed(r.prefill.tokens_per_s) }),
          el('td', { text: f.integer(r.max_context_tokens) }),
          el('td', { text: f.params(r.params_total) + (r.moe ? ' / ' + f.params(r.params_active) : '') })));
      });
    }
    container.appendChild(el('div', { class: 'row' }, quality, filter));
    container.appendChild(el('div', { class: 'table-wrap' }, table));
    draw();
  }

  LlmCalc.renderRankView = renderRankView;
})(window.LlmCalc);
