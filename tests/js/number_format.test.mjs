// The page's number formatting (web/src/30-i18n.mjs) keeps the texts it wrote: a text looked up
// must be the one Intl writes for that value, whatever came before it (zero and negative zero,
// the same value at other digit counts and locales, a full store cleared).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LlmCalc } from '../../web/src/00-namespace.mjs';
import '../../web/src/30-i18n.mjs';

const intl = (locale, digits, value) =>
  new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);

test('formatted numbers equal Intl.NumberFormat, first time and looked up', () => {
  const values = [0, -0, 0, -0, 1, -1, 0.5, 1.5, 2.5, -2.5, 0.125, 1234567.891, -1234567.891, 8192, 1e21, 5e-7,
                  17179869184 / 1073741824, 123.456];
  for (const [lang, locale] of [['en', 'en-US'], ['es', 'es-ES']]) {
    const f = LlmCalc.i18n.formatter(lang);
    for (let round = 0; round < 2; ++round) {
      for (const digits of [0, 1, 2]) {
        for (const value of values) assert.equal(f.number(value, digits), intl(locale, digits, value), `${lang} ${digits} ${value}`);
      }
    }
    assert.equal(f.integer(-0), intl(locale, 0, -0));
    assert.equal(f.number(NaN, 2), '—');
    assert.equal(f.number(Infinity, 0), '—');
  }
});

test('a store cleared when full still answers as Intl does', () => {
  const f = LlmCalc.i18n.formatter('en');
  // More distinct values than a store keeps (4,096), then every one of them again.
  const values = Array.from({ length: 10000 }, (_, i) => i * 1.37 - 500);
  for (let round = 0; round < 2; ++round) {
    for (const value of values) assert.equal(f.number(value, 2), intl('en-US', 2, value));
  }
});
