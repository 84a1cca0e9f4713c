'use strict';
// Correctly rounded weight = 0.5 ** exponent and the [0,1] clamp (INT-04, INT-35).
const test = require('node:test');
const assert = require('node:assert/strict');
const { halfPow, recencyBonus } = require('../src/recency');
const { parseUtcTimestamp } = require('../src/timestamps');

test('integer exponents are exact powers of two', () => {
  for (let k = 1; k <= 1074; k++) assert.equal(halfPow(k), 2 ** -k, String(k));
});

test('underflow and subnormal boundaries round correctly', () => {
  assert.equal(halfPow(1074), 5e-324); // 2^-1074, the smallest subnormal
  assert.equal(halfPow(1075), 0); // 2^-1075 is exactly half of it: tie -> even (0)
  assert.equal(halfPow(1074.5), 5e-324); // 0.707 * 2^-1074 -> 1 * 2^-1074
  assert.equal(halfPow(1073.5), 5e-324); // 1.414 * 2^-1074 -> 1 * 2^-1074
  assert.equal(halfPow(1072.5), 3 * 5e-324); // 2^1.5 = 2.83 quanta of 2^-1074 -> 3 quanta (1.5e-323)
});

test('half-integer exponent: 0.5 ** 0.5 = sqrt(1/2) correctly rounded', () => {
  assert.equal(halfPow(0.5), Math.SQRT1_2); // Math.sqrt is correctly rounded (IEEE 754)
  assert.equal(halfPow(1.5), Math.SQRT1_2 / 2);
});

test('values where V8 Math.pow is 1 ulp off (oracle: Python decimal, 120 digits)', () => {
  // exponent = (ms / 86 400 000) / 30 for an age in whole milliseconds.
  const cases = [
    [0.5673938850308642, 0.6748347238301541],
    [1.4576477141203703, 0.36408628115562985],
    [3.583101366126543, 0.08344090605472367],
  ];
  for (const [e, expected] of cases) assert.equal(halfPow(e), expected, String(e));
});

test('recency bonus: clamp to [0,1]', () => {
  const now = parseUtcTimestamp('2024-03-01T00:00:00Z').ns;
  const ts = (s) => parseUtcTimestamp(s).ns;
  assert.equal(recencyBonus(now, ts('2024-01-31T00:00:00Z'), 30), 0.5); // 30 d / 30 = 1 -> 0.5
  assert.equal(recencyBonus(now, ts('2023-12-02T00:00:00Z'), 30), 0.125); // 90 d / 30 = 3 -> 0.125
  assert.equal(recencyBonus(now, ts('2024-03-01T00:00:00Z'), 30), 1); // age 0 -> 1
  assert.equal(recencyBonus(now, ts('2024-03-05T00:00:00Z'), 30), 1); // future -> 2^(4/30) > 1 -> clamp 1
  assert.equal(recencyBonus(now, ts('0001-01-01T00:00:00Z'), 1), 0); // ~739 000 half-lives -> underflow 0
  // 1 470 684 950 ms = 17.021816550925925 d; / 30 = 0.5673938850308642 -> 0.6748347238301541
  assert.equal(recencyBonus(now, ts('2024-02-12T23:28:35.050Z'), 30), 0.6748347238301541);
});
