// The page scripts apart from the element's stylesheet, imported by both entries (main.mjs and
// main-prerendered.mjs). Modules are evaluated in this order; each fills in its part of the
// LlmCalc namespace, and the last registers the <llm-calc> element.
import './10-core.mjs';
import './12-core-worker.mjs';
import './20-state.mjs';
import './30-i18n.mjs';
import './40-dom.mjs';
import './45-number-box.mjs';
import './50-context-scale.mjs';
import './52-line-chart.mjs';
import './53-token-stream.mjs';
import './54-assumption-editor.mjs';
import './55-model-file.mjs';
import './55-model-hub.mjs';
import './56-machine-editor.mjs';
import './56-sortable-table.mjs';
import './57-advice-view.mjs';
import './57-explore-view.mjs';
import './57-finetune-editor.mjs';
import './58-compare-view.mjs';
import './58-plan-view.mjs';
import './58-rank-view.mjs';
import './59-cost-chart.mjs';
import './59-export.mjs';
import './60-element.mjs';
import './90-define.mjs';
