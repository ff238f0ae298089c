// One inline-SVG line chart for the page's charts (memory against context, cost over time):
// vertical grid lines at the x ticks, the y maximum written top left, an optional dashed limit
// line, an optional vertical marker (the current setting), and series drawn as paths with
// optional dots and a name at the last point.
import { LlmCalc } from './00-namespace.mjs';

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  Object.keys(attributes || {}).forEach((name) => node.setAttribute(name, String(attributes[name])));
  if (text !== undefined) node.textContent = text;
  return node;
}

// options: label (aria), position(x) -> 0..1, ticks [{ at, text }], yMax, yText,
// limit { value, text } (optional), marker { at, text } (optional),
// series [{ className, name?, points [{ x, y, dot? }] }].
LlmCalc.lineChart = function (options) {
  const width = 560;
  const height = 220;
  const named = options.series.some((series) => series.name);
  const pad = { left: 56, right: named ? 72 : 12, top: 12, bottom: 34 };
  const x = (value) => pad.left + options.position(value) * (width - pad.left - pad.right);
  const y = (value) => height - pad.bottom - value / options.yMax * (height - pad.top - pad.bottom);
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img',
                             'aria-label': options.label });
  options.ticks.forEach((tick) => {
    const tx = x(tick.at);
    chart.appendChild(svg('line', { x1: tx, x2: tx, y1: pad.top, y2: height - pad.bottom, class: 'grid' }));
    chart.appendChild(svg('text', { x: tx, y: height - 12, 'text-anchor': 'middle', class: 'axis' }, tick.text));
  });
  if (options.limit) {
    const ly = y(options.limit.value);
    chart.appendChild(svg('line', { x1: pad.left, x2: width - pad.right, y1: ly, y2: ly, class: 'limit' }));
    chart.appendChild(svg('text', { x: pad.left + 4, y: ly - 4, class: 'axis' }, options.limit.text));
  }
  if (options.marker) {
    const mx = x(options.marker.at);
    chart.appendChild(svg('line', { x1: mx, x2: mx, y1: pad.top, y2: height - pad.bottom, class: 'marker' }));
    chart.appendChild(svg('text', { x: mx + 4, y: height - pad.bottom - 4, class: 'axis marker-text' }, options.marker.text));
  }
  const labels = [];
  options.series.forEach((series) => {
    if (!series.points.length) return;
    const d = series.points.map((p, i) => (i ? 'L' : 'M') + x(p.x).toFixed(1) + ' ' + y(p.y).toFixed(1)).join(' ');
    chart.appendChild(svg('path', { d: d, class: 'series ' + (series.className || '') }));
    series.points.forEach((p) => {
      if (p.dot) chart.appendChild(svg('circle', { cx: x(p.x), cy: y(p.y), r: 3, class: p.dot }));
    });
    const last = series.points[series.points.length - 1];
    if (series.name) labels.push({ x: x(last.x) + 4, y: y(last.y) + 4, series: series });
  });
  // Names at the lines' ends, top to bottom, at least one text line apart.
  labels.sort((a, b) => a.y - b.y).forEach((label, i, all) => {
    if (i > 0) label.y = Math.max(label.y, all[i - 1].y + 12);
    chart.appendChild(svg('text', { x: label.x, y: label.y, class: 'axis ' + (label.series.className || '') },
                          label.series.name));
  });
  chart.appendChild(svg('text', { x: 4, y: pad.top + 10, class: 'axis' }, options.yText));
  return chart;
};
