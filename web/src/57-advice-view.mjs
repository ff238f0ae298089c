// "What would run": when the setup does not fit, the changes that would make it run, each
// computed by the core (explore's advice and recommendations) and applied with one click.
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;

// `apply(changes)` sets state keys (weights, ctx, n, hw) as the user would.
LlmCalc.renderAdvice = function (container, result, state, t, f, apply) {
  LlmCalc.dom.clear(container);
  const advice = result.advice;
  container.hidden = !advice || advice.verdict !== 'oom';
  if (container.hidden) return;
  const options = [];
  const offer = (text, changes) => {
    const button = el('button', { type: 'button', class: 'advice', text: text });
    button.addEventListener('click', () => apply(changes));
    options.push(button);
  };
  if (advice.weights) {
    offer(t('advice_format').replace('{format}', advice.weights.format).replace('{verdict}', t(advice.weights.verdict).toLowerCase()),
          { weights: advice.weights.format });
  }
  if (advice.max_context_tokens && advice.max_context_tokens > 0) {
    offer(t('advice_context').replace('{ctx}', f.integer(advice.max_context_tokens)), { ctx: advice.max_context_tokens });
  }
  if (advice.devices) {
    offer(t('advice_devices').replace('{count}', String(advice.devices.count)), { n: advice.devices.count });
  }
  const cheapest = result.recommendations && result.recommendations.cheapest_device;
  if (cheapest && cheapest.id !== state.hw) {
    offer(t('advice_device').replace('{device}', cheapest.name).replace('{price}', '$' + f.number(cheapest.price_usd, 0)),
          { hw: cheapest.id, n: 1 });
  }
  container.appendChild(el('h3', { text: t('advice_title') }));
  if (!options.length) {
    container.appendChild(el('p', { text: t('advice_none') }));
    return;
  }
  const list = el('ul', { class: 'advice-list', 'data-testid': 'advice' });
  options.forEach((button) => list.appendChild(el('li', {}, button)));
  container.appendChild(list);
};
