// A whole-number box: a value that is not whole or lies outside [min, max] is refused with a
// message beside it (and aria-invalid), and the last accepted value stays. Shared by the
// settings, the devices-and-machines editor and the fine-tuning settings.
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;

// options: { message (the refusal text), dataKey (the state key, when it differs from key),
// empty (the value an empty box stands for; absent: an empty box is refused) }.
// Returns { input, error }; onValue(value) is called with each accepted value.
LlmCalc.numberBox = function (key, min, max, options, onValue) {
  const error = el('span', { class: 'field-error', id: 'f-' + key + '-error', role: 'alert' });
  error.hidden = true;
  const input = el('input', { id: 'f-' + key, type: 'number', min: min, max: max, step: 1, inputmode: 'numeric',
                              'data-key': options.dataKey, 'aria-describedby': 'f-' + key + '-error' });
  input.addEventListener('change', () => {
    const raw = input.value.trim();
    const value = raw === '' && options.empty !== undefined ? options.empty
      : /^\d{1,8}$/.test(raw) ? parseInt(raw, 10) : undefined;
    const valid = value !== undefined && (value === options.empty || (value >= min && value <= max));
    error.hidden = valid;
    error.textContent = valid ? '' : options.message;
    if (valid) {
      input.removeAttribute('aria-invalid');
      onValue(value);
    } else {
      input.setAttribute('aria-invalid', 'true');
    }
  });
  return { input: input, error: error };
};
