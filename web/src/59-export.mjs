// Export (issue #21 item 13): a Markdown summary of the estimate to paste in an issue or a chat,
// the request with its whole result as a JSON file, and a chart as an SVG or PNG file. All are made in the browser
// from the figures on screen; nothing is sent anywhere.
import { LlmCalc } from './00-namespace.mjs';

// The summary, in the page's language: what was estimated, the verdict, memory, speeds, the
// link that reopens it and the selected engine's command.
function markdownSummary(r, request, state, t, f, device, link) {
  const m = r.memory;
  const lines = [
    '## ' + (r.model.name || r.model.id) + ' · ' + r.weights.format + ' · ' + device + ' · ' + r.engine.name + ' ' + r.engine.version,
    '',
    '- ' + t('ctx') + ': ' + f.integer(r.scenario.context_tokens) + ' · ' + t('prompt') + ': ' + f.integer(state.prompt) + ' · ' +
      t('batch') + ': ' + state.batch,
    '- ' + t('verdict') + ': ' + t(m.verdict) + ' (' + f.number(100 * m.utilization, 0) + ' %)',
    '- ' + t('memory') + ': ' + t('weights_part') + ' ' + f.gib(m.weights_bytes) + ', ' + t('kv_part') + ' ' +
      f.gib(m.kv_cache_bytes) + ', ' + t('overhead_part') + ' ' + f.gib(m.overhead_bytes) +
      (m.projector_bytes ? ', ' + t('projector_part') + ' ' + f.gib(m.projector_bytes) : '') + ' · ' + t('total') + ' ' +
      f.gib(m.total_bytes) + ' / ' + f.gib(m.usable_bytes),
    '- ' + t('max_context') + ': ' + f.integer(m.max_context_tokens),
  ];
  if (m.verdict !== 'oom') {
    lines.push('- ' + t('decode') + ': ' + f.speed(r.decode.tokens_per_s) + ' ' + t('tokens_per_s') + ' (' +
      f.speed(r.decode.low) + '–' + f.speed(r.decode.high) + ')' +
      (r.prefill.tokens_per_s > 0 ? ' · ' + t('prefill') + ': ' + f.speed(r.prefill.tokens_per_s) + ' ' + t('tokens_per_s') +
        ' · ' + t('ttft') + ': ' + f.seconds(r.prefill.ttft_s) + ' ' + t('seconds') : ''));
  }
  lines.push('- ' + link);
  const command = r.commands[state.engine === 'transformers' ? 'llama.cpp' : state.engine];
  if (command) lines.push('', '```sh', command.command, '```');
  return lines.join('\n') + '\n';
}

// Saves `content` (text or a Blob) as a file named `name` (a Blob URL on a link the user's click
// follows).
function download(name, content, type) {
  const url = URL.createObjectURL(content instanceof Blob ? content : new Blob([content], { type: type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// A chart as a standalone SVG: a copy of the drawing with each element's computed stroke, fill
// and font written into it (the page's stylesheet does not travel with the file).
const STYLED = ['stroke', 'stroke-width', 'stroke-dasharray', 'fill', 'font-size', 'font-family', 'opacity'];
const CHART_WIDTH = 560;
const CHART_HEIGHT = 220;
function standaloneSvg(chart) {
  const copy = chart.cloneNode(true);
  const live = [chart].concat(Array.from(chart.querySelectorAll('*')));
  const copied = [copy].concat(Array.from(copy.querySelectorAll('*')));
  live.forEach((node, i) => {
    const style = getComputedStyle(node);
    STYLED.forEach((property) => copied[i].setAttribute(property, style.getPropertyValue(property)));
  });
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(CHART_WIDTH));
  copy.setAttribute('height', String(CHART_HEIGHT));
  return new XMLSerializer().serializeToString(copy);
}

// The same drawing as a PNG at twice its size, on the page's background: the SVG is drawn into a
// canvas through an image of a data: URL (the Content-Security-Policy allows data: images).
function savePng(chart, name) {
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement('canvas');
    canvas.width = 2 * CHART_WIDTH;
    canvas.height = 2 * CHART_HEIGHT;
    const context = canvas.getContext('2d');
    context.fillStyle = getComputedStyle(chart.getRootNode().host || chart).backgroundColor || '#ffffff';
    if (context.fillStyle === 'rgba(0, 0, 0, 0)') context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    canvas.toBlob((blob) => download(name + '.png', blob, 'image/png'), 'image/png');
  };
  image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(standaloneSvg(chart));
}

// "Save SVG" and "Save PNG" for a chart.
function chartButtons(chart, name, t) {
  const buttons = document.createElement('span');
  buttons.className = 'chart-export';
  [['svg', t('save_svg'), () => download(name + '.svg', standaloneSvg(chart), 'image/svg+xml')],
   ['png', t('save_png'), () => savePng(chart, name)]].forEach(([kind, label, save]) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = kind;
    button.textContent = label;
    button.setAttribute('data-testid', name + '-' + kind);
    button.addEventListener('click', save);
    buttons.appendChild(button);
  });
  return buttons;
}

LlmCalc.chartButtons = chartButtons;
LlmCalc.exportSummary = markdownSummary;
LlmCalc.downloadText = download;
