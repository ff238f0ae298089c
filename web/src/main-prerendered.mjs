// The entry of dist/llm-calc-page.js, the element for index.html and llm-calculator.html: their
// pre-rendered page already carries the element's stylesheet (web/prerender.mjs), which the element
// adopts from there (LlmCalcElement.stylesheetText), so this bundle leaves its own copy out
// (2 KB gzip, issue #22).
import './element-modules.mjs';
