// The string tables (web/src/30-i18n.mjs in English, web/src/lang-es.mjs in Spanish): an object
// literal keeps the last of two equal keys, so a repeated key silently replaces a label; and
// Spanish has every English string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sources = Object.fromEntries([['en', '30-i18n.mjs'], ['es', 'lang-es.mjs']].map(([lang, file]) =>
  [lang, readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'src', file), 'utf8')]));

// The keys of the table `const <name> = {` ... `};` in `lang`'s file.
function keysOf(name, lang) {
  const source = sources[lang];
  const open = source.indexOf(`const ${name} = {`);
  const close = source.indexOf('\n};', open);
  assert.ok(open >= 0 && close > open, `${name} found in the ${lang} file`);
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
