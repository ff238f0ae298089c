// Registers the element; separate from the class so hosts can pick another tag name.
import { LlmCalc } from './00-namespace.mjs';

LlmCalc.define = function (tag, registry) {
  const target = registry || window.customElements;
  if (!target.get(tag)) target.define(tag, LlmCalc.LlmCalcElement);
};
LlmCalc.define('llm-calc');
