// What the module's code is made of (issue #22): the code section of a build that keeps function
// names (the llmcalc_core_names target, linked with --profiling-funcs), per function and per
// C++ namespace-qualified name, largest first.
// Usage: node tests/bench/wasm_sizes.mjs <module.wasm> [rows]
import { readFileSync } from 'node:fs';

const [path, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg || 15);
const bytes = readFileSync(path);
let at = 8;  // after the magic and version
const leb = () => {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return value;
};
const skipLimits = () => { if (leb() & 1) leb(); leb(); };

let imported = 0;
const bodies = [];
const names = new Map();
while (at < bytes.length) {
  const id = bytes[at++];
  const size = leb();
  const end = at + size;
  if (id === 2) {  // imports: functions count before the module's own in the index space
    for (let n = leb(); n > 0; --n) {
      // (`at += leb()` would read `at` before leb() moves it past the length's own bytes.)
      const moduleLength = leb();
      at += moduleLength;
      const nameLength = leb();
      at += nameLength;
      const kind = bytes[at++];
      if (kind === 0) { leb(); ++imported; }
      else if (kind === 1) { ++at; const flags = leb(); leb(); if (flags & 1) leb(); }
      else if (kind === 2) { const flags = leb(); leb(); if (flags & 1) leb(); }
      else if (kind === 3) at += 2;
      else if (kind === 4) { ++at; leb(); }
    }
  } else if (id === 10) {  // code
    for (let n = leb(); n > 0; --n) {
      const length = leb();
      bodies.push(length);
      at += length;
    }
  } else if (id === 0) {  // custom: the "name" section's function names
    const nameLength = leb();
    const name = bytes.subarray(at, at + nameLength).toString();
    at += nameLength;
    while (name === 'name' && at < end) {
      const sub = bytes[at++];
      const subEnd = at + leb();
      if (sub === 1) {
        for (let n = leb(); n > 0; --n) {
          const index = leb();
          const length = leb();
          names.set(index, bytes.subarray(at, at + length).toString());
          at += length;
        }
      }
      at = subEnd;
    }
  }
  at = end;
}
if (names.size === 0) throw new Error(`${path} has no function names: link it with --profiling-funcs`);

const functions = bodies.map((size, i) => ({ name: names.get(imported + i) || `function ${imported + i}`, size }));
const total = functions.reduce((sum, f) => sum + f.size, 0);
const kb = (n) => (n / 1024).toFixed(1).padStart(7);
// The owner of a function: its enclosing class or namespace function name, templates left out.
const owner = (name) => {
  const plain = name.replace(/\(anonymous namespace\)::/g, '').replace(/<[^<>]*>/g, '').replace(/<[^<>]*>/g, '')
    .replace(/\(.*$/, '');
  if (/^nlohmann::/.test(plain)) return 'nlohmann::json (templates)';
  if (/^std::/.test(plain)) return 'std:: (templates)';
  const parts = plain.split('::');
  return parts.length > 2 ? parts.slice(0, -1).join('::') : plain;
};
const groups = new Map();
for (const f of functions) groups.set(owner(f.name), (groups.get(owner(f.name)) || 0) + f.size);

console.log(`code section: ${kb(total)} KB in ${functions.length} functions`);
console.log(`largest owners (class or function, templates folded):`);
[...groups].sort((a, b) => b[1] - a[1]).slice(0, rows)
  .forEach(([name, size]) => console.log(`${kb(size)} KB  ${(100 * size / total).toFixed(1).padStart(4)}%  ${name}`));
console.log('largest functions:');
functions.sort((a, b) => b.size - a.size).slice(0, rows)
  .forEach((f) => console.log(`${kb(f.size)} KB  ${f.name.replace(/nlohmann::json_abi_v3_11_2::basic_json<[^()]*?>/g, 'json').slice(0, 110)}`));
