// Loads the built wasm core under node (the tests, the benchmark, the build's pre-render): node 20's
// fetch cannot read llmcalc_core.wasm by path (TOOLCHAIN.md P2), so its bytes are handed to the
// factory, as llm-calculator.html hands over its inlined copy.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export function loadNodeCore(modulePath) {
  const path = resolve(modulePath);
  const createLlmCalcCore = createRequire(import.meta.url)(path);
  return createLlmCalcCore({ wasmBinary: readFileSync(path.replace(/\.js$/, '.wasm')) });
}
