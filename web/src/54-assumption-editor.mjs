// The editable speed and memory assumptions: one number box per share-URL key. A box left empty
// keeps the core's calibrated or engine default, which its placeholder shows (read back from the
// result's scenario, so the page never repeats the core's defaults; "auto" where the default is
// a rule rather than a number).
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;
const S = LlmCalc.state;
const FIELDS = {
  bw_eff: { min: 1, max: 100, effective: (s) => 100 * s.assumptions.bandwidth_efficiency },
  cmp_eff: { min: 1, max: 100, effective: (s) => 100 * s.assumptions.compute_efficiency },
  qcmp_eff: { min: 1, max: 100, effective: (s) => 100 * s.assumptions.quantized_compute_efficiency },
  attn_eff: { min: 1, max: 100, effective: (s) => 100 * s.assumptions.attention_compute_efficiency },
  ovh_us: { min: 1, max: 10000, effective: (s) => 1e6 * s.assumptions.per_layer_overhead_s },
  reserve_mib: { min: 1, max: 65536, effective: (s) => s.assumptions.reserved_bytes / 1048576 },
  gpu_util: { min: 5, max: 100, effective: (s) => 100 * s.gpu_memory_utilization },
  // A build number reads without a thousands separator (b11541).
  llama_build: { min: 1, max: 999999, effective: (s) => s.llama_cpp_build, plain: true },
  uma_pct: { min: 10, max: 100, effective: (s) => (s.assumptions.unified_memory_fraction > 0
    ? 100 * s.assumptions.unified_memory_fraction : null) },
  comfort_pct: { min: 50, max: 100, effective: (s) => 100 * s.assumptions.comfortable_fraction },
};

// onSet(key, value) commits a change; 0 returns the key to its default.
LlmCalc.assumptionEditor = function (t, onSet) {
  const inputs = {};
  const details = el('details', { class: 'advanced', id: 'speed-assumptions' },
    el('summary', { text: t('assumptions') }), el('p', { class: 'hint', text: t('assumptions_hint') }));
  S.ASSUMPTION_KEYS.forEach((key) => {
    const spec = FIELDS[key];
    const input = el('input', { id: 'f-' + key, type: 'number', min: spec.min, max: spec.max, step: 1,
                                inputmode: 'numeric', 'data-key': key });
    input.addEventListener('change', () => {
      if (input.value.trim() === '') {
        onSet(key, 0);
        return;
      }
      const value = S.coerce(key, input.value);
      if (value !== undefined && value >= spec.min && value <= spec.max) onSet(key, value);
    });
    inputs[key] = input;
    details.appendChild(el('div', { class: 'field' }, el('label', { for: 'f-' + key, text: t(key) }), input));
  });
  return {
    element: details,
    render(state, scenario, f) {
      if (S.ASSUMPTION_KEYS.some((key) => state[key] > 0)) details.open = true;
      S.ASSUMPTION_KEYS.forEach((key) => {
        LlmCalc.dom.setValue(inputs[key], state[key] > 0 ? String(state[key]) : '');
        const effective = scenario ? FIELDS[key].effective(scenario) : undefined;
        const placeholder = effective === null ? t('auto') : effective === undefined ? ''
          : FIELDS[key].plain ? String(effective) : f.number(effective, 0);
        if (inputs[key].placeholder !== placeholder) inputs[key].placeholder = placeholder;
      });
    },
  };
};
