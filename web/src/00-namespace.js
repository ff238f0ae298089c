// The one global of the page scripts: window.LlmCalc. Files are concatenated in name order.
(function (root) {
  'use strict';
  root.LlmCalc = root.LlmCalc || {};
})(typeof window !== 'undefined' ? window : globalThis);
