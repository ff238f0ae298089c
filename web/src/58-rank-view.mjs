// "What runs on this device": every catalog model ranked by the core's rank(), as a sortable
// table whose rows link into the calculator (a share-URL hash).
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;

// What a ranking depends on: it is stale once any of these changes.
function rankKey(state) {
  return [state.hw, state.n, state.engine, state.ctx, state.prompt, state.batch, state.kv].join('|');
}

// What the core's rank() is asked for the calculator state: every catalog model, so no model,
// format or placement of its own.
function rankRequest(state, minBits) {
  const request = LlmCalc.state.toRequest(state);
  delete request.model;
  delete request.weights;
  delete request.gpu_layers;
  delete request.cpu_moe_layers;
  request.min_bits = minBits || 4;
  return request;
}

// Renders into `container` what `rank(request, done)` answers: at once where the page ranks
// itself, a moment later from the page's worker (saying so meanwhile). An answer that comes after
// the settings changed, or after a newer ranking was asked for, is dropped. `liveState` is the
// calculator's state (device, count, engine, context), read as it is when the ranking is asked for.
function renderRankView(container, rank, liveState, t, f, minBits) {
  LlmCalc.dom.clear(container);
  const state = Object.assign({}, liveState);
  const key = rankKey(state);
  container.dataset.rankedFor = key;
  const asked = String(Number(container.dataset.rankAsked || 0) + 1);
  container.dataset.rankAsked = asked;
  const request = rankRequest(state, minBits);
  const running = el('p', { class: 'hint', text: t('rank_running') });
  container.appendChild(running);
  rank(request, (answer) => {
    if (container.dataset.rankAsked !== asked || container.dataset.rankedFor !== key) return;
    container.removeChild(running);
    drawRanking(container, answer, state, t, f, request.min_bits,
                (bits) => renderRankView(container, rank, liveState, t, f, bits));
  });
}

// The table of an answer; `rerank(bits)` asks again with another lowest bits per weight.
function drawRanking(container, answer, state, t, f, minBits, rerank) {
  if (!answer.ok) {
    container.appendChild(el('p', { class: 'error', text: answer.issues.map((i) => i.message).join(' ') }));
    return;
  }
  const verdictRank = { comfortable: 0, tight: 1, offload: 2, oom: 3 };
  const table = LlmCalc.sortableTable({
    csvLabel: t('save_csv'),
    id: 'rank-table',
    rows: answer.result.rows,
    sortKey: 'verdict',
    rowAttributes: (r) => ({ 'data-model': r.model }),
    columns: [
      { key: 'name', label: t('model'), ascending: true, value: (r) => r.name,
        cell: (r) => el('a', { href: LlmCalc.state.encodeHash(Object.assign({}, state, { model: r.model, weights: r.weights, ctx: state.ctx && r.context_tokens })),
                               text: r.name }) },
      { key: 'weights', label: t('weights'), value: (r) => r.bits_per_weight,
        cell: (r) => r.weights + ' (' + f.number(r.bits_per_weight, 2) + ')' },
      { key: 'verdict', label: t('verdict'), ascending: true, value: (r) => verdictRank[r.verdict],
        tie: (a, b) => b.decode.tokens_per_s - a.decode.tokens_per_s,
        cellClass: (r) => 'verdict-cell ' + r.verdict,
        cell: (r) => t(r.verdict) + (r.verdict === 'offload' && r.fit
          ? ' · ' + r.fit.host_expert_layers + ' ' + t('expert_layers_in_ram') : '') },
      { key: 'decode', label: t('decode'), value: (r) => (r.verdict === 'oom' ? -1 : r.decode.tokens_per_s),
        cell: (r) => (r.verdict === 'oom' ? '— (' + t('does_not_run') + ')'
          : f.speed(r.decode.tokens_per_s) + ' (' + f.speed(r.decode.low) + '–' + f.speed(r.decode.high) + ')') },
      { key: 'prefill', label: t('prefill'), value: (r) => r.prefill.tokens_per_s, cell: (r) => f.speed(r.prefill.tokens_per_s) },
      { key: 'context', label: t('max_context_short'), value: (r) => r.max_context_tokens, cell: (r) => f.integer(r.max_context_tokens) },
      { key: 'params', label: t('params_total'), value: (r) => r.params_total,
        cell: (r) => f.params(r.params_total) + (r.moe ? ' / ' + f.params(r.params_active) : '') },
    ],
  });
  const filter = el('input', { type: 'search', id: 'rank-filter', placeholder: t('filter'), 'aria-label': t('filter') });
  filter.addEventListener('input', () => {
    const needle = filter.value.toLowerCase();
    table.draw((r) => !needle || (r.name + ' ' + r.family + ' ' + (r.license || '')).toLowerCase().indexOf(needle) >= 0);
  });
  const quality = el('select', { id: 'rank-min-bits', 'aria-label': t('min_bits') },
    ...[8, 6, 5, 4, 3, 2].map((bits) => el('option', { value: bits, text: t('min_bits') + ': ' + bits })));
  quality.value = String(minBits);
  quality.addEventListener('change', () => rerank(Number(quality.value)));
  container.appendChild(el('div', { class: 'row' }, quality, filter));
  container.appendChild(table.element);
}

// Clears a ranking made for other settings, saying so (ranking every model is not redone on
// each change; the button redoes it).
function clearStaleRank(container, state, t) {
  if (!container.dataset.rankedFor || container.dataset.rankedFor === rankKey(state)) return;
  delete container.dataset.rankedFor;
  LlmCalc.dom.clear(container);
  container.appendChild(el('p', { class: 'hint', 'data-testid': 'rank-stale', text: t('rank_stale') }));
}

LlmCalc.rankRequest = rankRequest;
LlmCalc.renderRankView = renderRankView;
LlmCalc.clearStaleRank = clearStaleRank;
