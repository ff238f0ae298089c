// A sortable table: column headers are buttons (keyboard reachable); numeric columns sort largest
// first on the first click, text and rank-like columns smallest first.
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;

// The rows a draw writes at once; the rest follow once that frame is painted (the table says
// aria-busy meanwhile). The ranking's 168 rows took 28-45 ms of script and 36-47 ms of layout
// before any showed (1x, the page's first ranking; issue #22).
const FIRST_ROWS = 40;

// columns: [{ key, label, value(row) -> number|string, cell(row) -> Node|string, ascending }]
// Returns { element, draw(filter) } where filter(row) -> boolean.
LlmCalc.sortableTable = function (options) {
  const columns = options.columns;
  const rows = options.rows.slice();
  let sortKey = options.sortKey;
  let ascending = Boolean(columns.find((c) => c.key === sortKey).ascending);
  let filter = () => true;
  const head = el('tr');
  const body = el('tbody');
  columns.forEach((column) => {
    const button = el('button', { type: 'button', 'data-sort': column.key, text: column.label });
    button.addEventListener('click', () => {
      ascending = sortKey === column.key ? !ascending : Boolean(column.ascending);
      sortKey = column.key;
      draw();
    });
    head.appendChild(el('th', { scope: 'col', 'data-key': column.key }, button));
  });
  // The sorted column says so to assistive technology (aria-sort) and to the eye (an arrow).
  function markSorted() {
    Array.prototype.forEach.call(head.children, (th) => {
      const sorted = th.getAttribute('data-key') === sortKey;
      const button = th.firstChild;
      const label = columns.find((c) => c.key === th.getAttribute('data-key')).label;
      if (sorted) th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
      button.textContent = label + (sorted ? (ascending ? ' ▲' : ' ▼') : '');
    });
  }
  function appendRows(shown) {
    shown.forEach((row) => {
      const tr = el('tr', options.rowAttributes ? options.rowAttributes(row) : {});
      columns.forEach((c) => {
        const content = c.cell(row);
        tr.appendChild(el('td', { class: c.cellClass ? c.cellClass(row) : null },
          typeof content === 'string' ? document.createTextNode(content) : content));
      });
      body.appendChild(tr);
    });
  }
  // The rows of the last draw not written yet; `draws` tells a later draw's wait from this one's.
  let rest = [];
  let draws = 0;
  function complete() {
    appendRows(rest);
    rest = [];
    table.removeAttribute('aria-busy');
  }
  function draw(newFilter) {
    if (newFilter) filter = newFilter;
    markSorted();
    const column = columns.find((c) => c.key === sortKey);
    const shown = rows.filter(filter);
    shown.sort((a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
      // Equal keys fall back to the column's tie-break (e.g. fastest first within a verdict).
      return (ascending ? order : -order) || (column.tie ? column.tie(a, b) : 0);
    });
    LlmCalc.dom.clear(body);
    appendRows(shown.slice(0, FIRST_ROWS));
    rest = shown.slice(FIRST_ROWS);
    const drawn = ++draws;
    if (!rest.length) {
      complete();
      return;
    }
    table.setAttribute('aria-busy', 'true');
    LlmCalc.dom.afterNextPaint().then(() => { if (drawn === draws) complete(); });
  }
  const table = el('table', { class: 'rank', id: options.id }, el('thead', {}, head), body);
  draw();
  const wrap = el('div', { class: 'table-wrap' }, table);
  if (!options.csvLabel) return { element: wrap, draw: draw };
  // The rows as shown (filtered and sorted), as CSV (issue #21 item 13).
  const csv = el('button', { type: 'button', class: 'csv', 'data-testid': options.id + '-csv', text: options.csvLabel });
  csv.addEventListener('click', () => {
    complete();
    const quote = (text) => '"' + String(text).replace(/"/g, '""') + '"';
    const lines = [columns.map((c) => quote(c.label)).join(',')].concat(Array.prototype.map.call(body.rows,
      (tr) => Array.prototype.map.call(tr.cells, (td) => quote(td.textContent)).join(',')));
    LlmCalc.downloadText(options.id + '.csv', lines.join('\r\n') + '\r\n', 'text/csv');
  });
  return { element: el('div', {}, csv, wrap), draw: draw };
};
