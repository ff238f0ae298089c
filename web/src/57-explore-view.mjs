// Panels around the main estimate, from the core's explore(): the quantization x context matrix,
// memory and decode speed against context (line charts on one log axis, the device's limit and
// the speed band drawn) and the same model on every catalog device (sortable).
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;
function renderMatrix(container, result, t, f) {
  LlmCalc.dom.clear(container);
  const contexts = [];
  const formats = [];
  result.matrix.forEach((cell) => {
    if (contexts.indexOf(cell.context_tokens) < 0) contexts.push(cell.context_tokens);
    if (formats.indexOf(cell.weights) < 0) formats.push(cell.weights);
  });
  const head = el('tr', {}, el('th', { scope: 'col', text: t('weights') }));
  contexts.forEach((c) => head.appendChild(el('th', { scope: 'col', text: f.tokens(c) })));
  const body = el('tbody');
  formats.forEach((format) => {
    const row = el('tr', {}, el('th', { scope: 'row', text: format }));
    contexts.forEach((c) => {
      const cell = result.matrix.find((m) => m.weights === format && m.context_tokens === c);
      // Fit in words as well as colour (issue #21 item 12): a mark and the verdict's name.
      const mark = { comfortable: '✓', tight: '~', offload: '↓', oom: '✗' };
      row.appendChild(el('td', { class: 'verdict-cell ' + (cell ? cell.verdict : ''),
                                 title: cell ? t(cell.verdict) : '',
                                 'aria-label': cell ? f.gib(cell.total_bytes) + ', ' + t(cell.verdict) : '',
                                 text: cell ? (mark[cell.verdict] || '') + ' ' + f.gib(cell.total_bytes) : '—' }));
    });
    body.appendChild(row);
  });
  container.appendChild(el('div', { class: 'table-wrap' },
    el('table', { class: 'rank', id: 'matrix-table' }, el('thead', {}, head), body)));
}

// The sweep's x-axis: log2 of the context, 4K to 1M tokens, with the chosen context marked.
function contextAxis(result, t, f) {
  const chosen = result.context_tokens;
  const axis = {
    position: (tokens) => (Math.log2(tokens) - 12) / (20 - 12),
    ticks: [12, 14, 16, 18, 20].map((power) => ({ at: 2 ** power, text: f.tokens(2 ** power) })),
  };
  if (chosen >= 4096 && chosen <= 1048576) axis.marker = { at: chosen, text: t('this_context') + ' ' + f.tokens(chosen) };
  return axis;
}

// Memory against context, with the usable line.
function renderChart(container, result, t, f) {
  LlmCalc.dom.clear(container);
  const points = result.sweep;
  if (!points.length) return;
  const maxBytes = Math.max(result.usable_bytes, ...points.map((p) => p.total_bytes)) * 1.05;
  container.appendChild(LlmCalc.lineChart(Object.assign(contextAxis(result, t, f), {
    label: t('chart_label'),
    yMax: maxBytes,
    yText: f.gib(maxBytes),
    limit: { value: result.usable_bytes, text: t('usable') + ' ' + f.gib(result.usable_bytes) },
    series: [{ points: points.map((p) => ({ x: p.context_tokens, y: p.total_bytes, dot: p.fits ? 'fits' : 'oom' })) }],
  })));
  container.appendChild(LlmCalc.chartButtons(container.firstChild, 'memory-chart', t));
}

// Decode speed (per sequence) against context, the likely range as dashed lines above and
// below; a red dot marks contexts that do not fit.
function renderSpeedChart(container, result, t, f) {
  LlmCalc.dom.clear(container);
  const points = result.sweep.filter((p) => isFinite(p.decode_high) && p.decode_high > 0);
  if (!points.length) return;
  const yMax = Math.max(...points.map((p) => p.decode_high)) * 1.05;
  const line = (key, className, dots) => ({
    className: className,
    points: points.map((p) => ({ x: p.context_tokens, y: p[key], dot: dots ? (p.fits ? 'fits' : 'oom') : null })),
  });
  container.appendChild(LlmCalc.lineChart(Object.assign(contextAxis(result, t, f), {
    label: t('speed_chart_label'),
    yMax: yMax,
    yText: f.speed(yMax) + ' ' + t('tokens_per_s'),
    series: [line('decode_high', 'band'), line('decode_tokens_per_s', 'decode', true), line('decode_low', 'band')],
  })));
  container.appendChild(LlmCalc.chartButtons(container.firstChild, 'speed-chart', t));
}

// Rows carry the device id; names come from the catalog.
function renderDevices(container, result, catalogDevices, t, f) {
  LlmCalc.dom.clear(container);
  const names = {};
  catalogDevices.forEach((d) => { names[d.id] = d.name; });
  const name = (d) => names[d.id] || d.id;
  const verdictRank = { comfortable: 0, tight: 1, oom: 2 };
  const table = LlmCalc.sortableTable({
    csvLabel: t('save_csv'),
    id: 'device-table',
    rows: result.devices,
    sortKey: 'decode',
    rowAttributes: (d) => ({ 'data-device': d.id }),
    columns: [
      { key: 'name', label: t('hw'), ascending: true, value: name, cell: name },
      { key: 'verdict', label: t('verdict'), ascending: true, value: (d) => verdictRank[d.verdict],
        tie: (a, b) => b.decode_tokens_per_s - a.decode_tokens_per_s,
        cellClass: (d) => 'verdict-cell ' + d.verdict, cell: (d) => t(d.verdict) },
      { key: 'memory', label: t('total'), value: (d) => d.total_bytes / Math.max(1, d.usable_bytes),
        cell: (d) => f.gib(d.total_bytes) + ' / ' + f.gib(d.usable_bytes) },
      // A device the model does not fit shows no speed, and sorts below every one it runs on.
      { key: 'decode', label: t('decode'), value: (d) => (d.verdict === 'oom' ? -1 : d.decode_tokens_per_s),
        cell: (d) => (d.verdict === 'oom' ? '—' : f.speed(d.decode_tokens_per_s)) },
      { key: 'ttft', label: t('ttft'), ascending: true, value: (d) => (d.verdict === 'oom' || !(d.ttft_s > 0) ? Number.MAX_VALUE : d.ttft_s),
        cell: (d) => (d.verdict !== 'oom' && d.ttft_s > 0 ? f.seconds(d.ttft_s) : '—') },
      { key: 'context', label: t('max_context_short'), value: (d) => d.max_context_tokens, cell: (d) => f.integer(d.max_context_tokens) },
      { key: 'price', label: t('price_launch_used'), ascending: true,
        value: (d) => (typeof d.price_used_usd === 'number' ? d.price_used_usd : d.price_usd === null ? Number.MAX_VALUE : d.price_usd),
        cell: (d) => [d.price_usd, d.price_used_usd].map((v) => (typeof v === 'number' ? '$' + f.number(v, 0) : '—')).join(' · ') },
    ],
  });
  container.appendChild(table.element);
}

function renderRecommendations(container, result, catalogDevices, t, f) {
  LlmCalc.dom.clear(container);
  const device = catalogDevices.find((d) => result.recommendations.cheapest_cloud &&
                                           d.id === result.recommendations.cheapest_cloud.device_id);
  const r = result.recommendations;
  const usd = (v) => '$' + f.number(v, 0);
  const rows = [
    [t('rec_device'), r.cheapest_device ? r.cheapest_device.name + ' (' + usd(r.cheapest_device.price_usd) + ')' : '—'],
    [t('rec_used'), r.best_value_used ? r.best_value_used.name + ' (' + usd(r.best_value_used.price_used_usd) + ', ' +
      f.speed(r.best_value_used.tokens_per_s_per_1000_usd) + ' ' + t('tokens_per_s') + ' ' + t('per_1000_usd') + ')' : '—'],
    [t('rec_unified'), r.unified_memory ? r.unified_memory.name : '—'],
    [t('rec_cloud'), r.cheapest_cloud ? r.cheapest_cloud.provider + ' ' + r.cheapest_cloud.device_count + ' x ' +
      (device ? device.name : r.cheapest_cloud.device_id) + ' (' + '$' + f.number(r.cheapest_cloud.usd_per_hour, 2) + '/h, ' + r.cheapest_cloud.price_date + ')' : '—'],
    [t('rec_multi'), r.multi_gpu ? r.multi_gpu.count + ' x ' + r.multi_gpu.name + ' (' + usd(r.multi_gpu.price_usd) + ')' : '—'],
  ];
  rows.forEach((row) => container.appendChild(el('div', { class: 'item' }, el('dt', { text: row[0] }), el('dd', { text: row[1] }))));
}

// Draws the panels the result holds (explore may answer with some sections only). The device
// table sits in a closed section: it is built when that section is open, now or when it opens
// (ui.devicesCard), from the latest result.
LlmCalc.renderExplore = function (ui, result, catalogDevices, t, f) {
  if (result.matrix) renderMatrix(ui.matrix, result, t, f);
  if (result.sweep) {
    renderChart(ui.chart, result, t, f);
    renderSpeedChart(ui.speedChart, result, t, f);
  }
  if (!result.devices) return;
  renderRecommendations(ui.recommendations, result, catalogDevices, t, f);
  ui.renderDevices = () => renderDevices(ui.devices, result, catalogDevices, t, f);
  if (ui.devicesCard.open) ui.renderDevices();
  else LlmCalc.dom.clear(ui.devices);
};
