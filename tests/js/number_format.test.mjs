// The page's number formatting (web/src/30-i18n.mjs) writes numbers as Intl.NumberFormat does
// (ICU, the independent reference here) without making an Intl object, and keeps the texts it
// wrote: a text looked up must be the one Intl writes for that value, whatever came before it
// (zero and negative zero, the same value at other digit counts and locales, a full store cleared).
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

// 50,000 values over sixteen decades, a third negative and a third ending in a decimal half
// (1.0005, 2.345...: ICU rounds the shortest decimal, so 1.005 is 1.01 where toFixed writes 1.00),
// at 0-3 fraction digits in both locales: 400,000 texts, each Intl's.
test('formatted numbers equal Intl.NumberFormat over 400,000 values, digit counts and locales', () => {
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const values = [1.005, 1.015, 999.995, 9999.5, 99999.5, 1234.5, -0.001, -0.005, 0.045, 1.5e-7, 2 ** 53];
  while (values.length < 50000) {
    let value = random() * 10 ** (Math.floor(random() * 16) - 6);
    if (random() < 0.3) value = -value;
    if (random() < 0.3) value = Math.round(value * 1000) / 1000 + (random() < 0.5 ? 0.0005 : 0.005);
    values.push(value);
  }
  for (const [lang, locale] of [['en', 'en-US'], ['es', 'es-ES']]) {
    const f = LlmCalc.i18n.formatter(lang);
    for (const digits of [0, 1, 2, 3]) {
      const reference = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
      for (const value of values) assert.equal(f.number(value, digits), reference.format(value), `${lang} ${digits} ${value}`);
    }
  }
});
