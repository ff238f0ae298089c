// The one global of the page scripts, window.LlmCalc: the element's public API (LlmCalc.define,
// LlmCalc.loadCore, LlmCalc.state) and the namespace the other modules fill in.
export const LlmCalc = (globalThis.LlmCalc = globalThis.LlmCalc || {});
