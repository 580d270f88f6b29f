// Money conversion and formatting (share/www/js/money.js), driven by the C++ money test's
// vectors (tests/vectors/money.json): the browser converts live updates (USD cents) to
// the chosen currency exactly as the daemon converts its answers.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

import {
  convertFromUsd,
  convertToUsd,
  fromUsd,
  major,
  money,
  mulDivRound,
  toUsd,
  withCurrency
} from '../../share/www/js/money.js';
import {minorOf} from '../../share/www/js/views/portfolio/amounts.js';

const vectors = JSON.parse(readFileSync(new URL('../vectors/money.json', import.meta.url)));

test('USD cents to minor units follow the shared vectors', () => {
  assert.ok(vectors.from_usd_cents.length >= 15);
  for (const v of vectors.from_usd_cents) {
    const rate = {
      code: v.currency,
      exponent: v.exponent,
      numerator: v.numerator,
      denominator: v.denominator
    };
    assert.equal(convertFromUsd(v.cents, rate), v.minor, v.why);
    assert.equal(fromUsd(v.cents, rate), v.minor, v.why);
  }
});

test('amounts to USD cents follow the shared vectors', () => {
  assert.ok(vectors.to_usd_cents.length >= 6);
  for (const v of vectors.to_usd_cents) {
    const rate = {
      code: v.currency,
      exponent: v.amount_exponent,
      numerator: v.numerator,
      denominator: v.denominator
    };
    assert.equal(convertToUsd(v.amount, v.amount_exponent, rate), v.cents, v.why);
    assert.equal(toUsd(v.amount, rate), v.cents, v.why);
  }
});

test('mulDivRound follows the shared vectors', () => {
  for (const v of vectors.mul_div_round) assert.equal(mulDivRound(v.a, v.b, v.c), v.result, v.why);
});

test('USD and missing amounts pass through unconverted', () => {
  const usd = {code: 'USD', exponent: 2, numerator: 1, denominator: 1};
  assert.equal(fromUsd(1234, usd), 1234);
  assert.equal(toUsd(1234, usd), 1234);
  assert.equal(fromUsd(null, {code: 'EUR', exponent: 2, numerator: 95, denominator: 100}), null);
  assert.equal(
      toUsd(undefined, {code: 'EUR', exponent: 2, numerator: 95, denominator: 100}), undefined);
});

test('major units are exact strings with the exponent\'s decimals', () => {
  assert.equal(major(123456, 2), '1234.56');
  assert.equal(major(5, 2), '0.05');
  assert.equal(major(-5, 2), '-0.05');
  assert.equal(major(0, 2), '0.00');
  assert.equal(major(-1000, 2), '-10.00');
  assert.equal(major(1235, 0), '1235');
  assert.equal(major(3070, 3), '3.070');
  assert.equal(major('9223372036854775807', 2), '92233720368547758.07');
});

test('money formats minor units by the currency\'s exponent', () => {
  assert.equal(money(1234, {code: 'USD', exponent: 2}, 'en-US'), '$12.34');
  assert.equal(money(1235, {code: 'JPY', exponent: 0}, 'en-US'), '¥1,235');
  assert.match(
      money(3070, {code: 'KWD', exponent: 3}, 'en-US'), /^KWD\s3\.070$/);  // a no-break space
  assert.equal(money(null), '—');
  assert.equal(money(undefined), '—');
});

test('withCurrency adds currency= for any currency but USD', () => {
  const eur = {code: 'EUR', exponent: 2, numerator: 95, denominator: 100};
  assert.equal(withCurrency('/api/v1/items/1', eur), '/api/v1/items/1?currency=EUR');
  assert.equal(
      withCurrency('/api/v1/items/1/candles?window=24h', eur),
      '/api/v1/items/1/candles?window=24h&currency=EUR');
  assert.equal(withCurrency('/api/v1/items/1', {code: 'USD'}), '/api/v1/items/1');
});

test('a typed amount becomes minor units of the currency, or NaN', () => {
  assert.equal(minorOf('12.5', 2), 1250);
  assert.equal(minorOf('1,234.56', 2), 123456);
  assert.equal(minorOf('$3', 2), 300);
  assert.equal(minorOf('€3.07', 2), 307);
  assert.equal(minorOf('1235', 0), 1235);
  assert.equal(minorOf('3.070', 3), 3070);
  assert.ok(Number.isNaN(minorOf('12.345', 2)));  // more decimals than the currency has
  assert.ok(Number.isNaN(minorOf('12.5', 0)));
  assert.ok(Number.isNaN(minorOf('-3', 2)));
  assert.ok(Number.isNaN(minorOf('abc', 2)));
});
