// The entry of dist/llm-calc.js, the element for any page (web/build.mjs bundles it, minified):
// the stylesheet first, then the rest.
import './05-styles.mjs';
import './element-modules.mjs';
