// One fresh module: an estimate, then (with "rank") the first rank of the whole catalog.
// tests/bench/wasm_instructions.sh runs it under valgrind with and without the rank.
import { loadNodeCore } from '../../web/node-core.mjs';

const [modulePath, mode] = process.argv.slice(2);
const core = await loadNodeCore(modulePath);
core.estimate(JSON.stringify({ model: 'llama-3.1-8b', hardware: 'rtx-4090' }));
if (mode === 'rank') core.rank(JSON.stringify({ hardware: 'm4-max-64gb' }));
