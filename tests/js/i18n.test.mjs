// The string tables (web/src/30-i18n.mjs): an object literal keeps the last of two equal keys, so
// a repeated key silently replaces a label; and Spanish has every English string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'src', '30-i18n.mjs'), 'utf8');

// The keys of the table that starts at `  <lang>: {` inside `const <name> = {`.
function keysOf(name, lang) {
  const start = source.indexOf(`const ${name} = {`);
  const open = source.indexOf(`\n  ${lang}: {`, start);
  const close = source.indexOf('\n  },', open);
  assert.ok(start >= 0 && open > start && close > open, `${name}.${lang} found`);
  // A key starts a line or follows ", " (words ending in a colon inside a string do neither).
  return [...source.slice(open, close).matchAll(/(?:^\s+|, )([a-z_0-9]+): (?:['`(])/gm)].map((m) => m[1]);
}

for (const name of ['STRINGS', 'SENTENCES']) {
  test(`${name}: no key twice in a table, the same keys in English and Spanish`, () => {
    const en = keysOf(name, 'en');
    const es = keysOf(name, 'es');
    assert.ok(en.length > 5, `${name}.en has keys`);
    for (const [lang, keys] of [['en', en], ['es', es]]) {
      const repeated = keys.filter((key, i) => keys.indexOf(key) !== i);
      assert.deepEqual(repeated, [], `${name}.${lang} repeats keys`);
    }
    assert.deepEqual([...es].sort(), [...en].sort());
  });
}
