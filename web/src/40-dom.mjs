// Tiny DOM helpers: elements are built with createElement and textContent only, never innerHTML.
import { LlmCalc } from './00-namespace.mjs';

// el('div', { class: 'x', 'aria-live': 'polite' }, child1, 'text', ...)
function el(tag, attributes) {
  const node = document.createElement(tag);
  const attrs = attributes || {};
  Object.keys(attrs).forEach(function (name) {
    const value = attrs[name];
    if (value === undefined || value === null || value === false) return;
    if (name === 'text') {
      node.textContent = String(value);
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  });
  for (let i = 2; i < arguments.length; ++i) {
    const child = arguments[i];
    if (child === null || child === undefined) continue;
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

function option(value, label) {
  return el('option', { value: value, text: label });
}

// A list of `tag` children holding `texts`: a re-render with as many entries only updates the
// texts that changed (a keystroke then writes a few text nodes, not a new list), found by
// comparing with the texts it last wrote rather than reading each item's text back.
const writtenTexts = new WeakMap();
function textItems(list, tag, texts) {
  const written = writtenTexts.get(list);
  writtenTexts.set(list, texts);
  if (!written || written.length !== texts.length || list.children.length !== texts.length) {
    clear(list);
    texts.forEach(function (text) { list.appendChild(el(tag, { text: text })); });
    return;
  }
  texts.forEach(function (text, i) {
    if (written[i] !== text) list.children[i].textContent = text;
  });
}

// Writes a control's value only when it differs: a select's value setter scans its options, and
// every write invalidates the control's style, even an unchanged one (the render on each
// keystroke sets seventeen of them).
function setValue(control, value) {
  if (control.value !== value) control.value = value;
}

// A number field shown with the state's value and no complaint (its error hidden), as each
// render leaves the fields it did not just reject.
function showValid(input, value, error) {
  setValue(input, value);
  input.removeAttribute('aria-invalid');
  if (!error.hidden) error.hidden = true;
}

// Resolves once a frame has been painted (a task after the next animation frame).
function afterNextPaint() {
  return new Promise(function (done) {
    requestAnimationFrame(function () { setTimeout(done, 0); });
  });
}

LlmCalc.dom = { el: el, clear: clear, option: option, textItems: textItems, setValue: setValue, showValid: showValid,
  afterNextPaint: afterNextPaint };
