// The element's stylesheet (web/llm-calc.css), bundled as text by esbuild; the element adopts it
// in its shadow root.
import { LlmCalc } from './00-namespace.mjs';
import css from '../llm-calc.css';

LlmCalc.styles = css;
