// One fresh module doing a fixed amount of work; tests/bench/wasm_instructions.sh runs it under
// valgrind at two amounts and prints the difference, the instructions of what was added.
//   start        an estimate (what every run does)
//   first-rank   start, then the first rank of the whole catalog
//   rank-again   first-rank, then a rank on another device (which plans the formats it walks to)
//   warm-ranks   rank-again, then 20 more ranks on that device
//   pages        start, then 10 page recomputes (estimate + explore, as the page runs on input)
//   more-pages   pages, then 50 more
import { loadNodeCore } from '../../web/node-core.mjs';

const [modulePath, amount] = process.argv.slice(2);
const core = await loadNodeCore(modulePath);
core.estimate(JSON.stringify({ model: 'llama-3.1-8b', hardware: 'rtx-4090' }));

const rank = (i) => core.rank(JSON.stringify({ hardware: 'rtx-4090', context_tokens: 4096 + i }));
const page = (i) => {
  const request = JSON.stringify({ model: 'llama-3.1-8b', hardware: 'rtx-4090', context_tokens: 16384 + i });
  core.estimate(request);
  core.explore(request);
};
const ranks = { 'first-rank': 0, 'rank-again': 1, 'warm-ranks': 21 }[amount];
if (ranks !== undefined) core.rank(JSON.stringify({ hardware: 'm4-max-64gb' }));
for (let i = 0; i < (ranks ?? 0); ++i) rank(i);
if (amount === 'pages' || amount === 'more-pages') for (let i = 0; i < 10; ++i) page(i);
if (amount === 'more-pages') for (let i = 10; i < 60; ++i) page(i);
