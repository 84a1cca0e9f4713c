'use strict';
// ts_utc grammar (INT-20), normalized string and ordering (INT-21), age_days (INT-35).
const test = require('node:test');
const assert = require('node:assert/strict');
const { parseUtcTimestamp, ageDays } = require('../src/timestamps');

test('valid timestamps and their normalized form', () => {
  const cases = [
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05Z'],
    ['2024-01-02T03:04:05+00:00', '2024-01-02T03:04:05Z'],
    ['2024-01-02T03:04:05.120+00:00', '2024-01-02T03:04:05.12Z'],
    ['2024-01-02T03:04:05.000Z', '2024-01-02T03:04:05Z'],
    ['2024-01-02T03:04:05.123456789Z', '2024-01-02T03:04:05.123456789Z'],
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59Z'], // leap year
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00Z'], // divisible by 400
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z'],
    ['9999-12-31T23:59:59.999999999Z', '9999-12-31T23:59:59.999999999Z'],
  ];
  for (const [s, n] of cases) assert.equal(parseUtcTimestamp(s)?.normalized, n, s);
});

test('invalid timestamps', () => {
  for (const s of [
    '2024-01-02t03:04:05Z', '2024-01-02T03:04:05z', '2024-01-02 03:04:05Z', '2024-01-02T03:04:05',
    '2024-01-02T03:04:05+02:00', '2024-01-02T03:04:05-00:00', '2024-01-02T03:04:05.Z',
    '2024-01-02T03:04:05.1234567890Z', '2023-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2024-02-30T00:00:00Z',
    '0000-01-01T00:00:00Z', '2024-13-01T00:00:00Z', '2024-00-01T00:00:00Z', '2024-01-00T00:00:00Z',
    '2024-01-02T24:00:00Z', '2024-01-02T23:60:00Z', '2024-01-02T23:59:60Z', '2024-01-02T03:04:05Z\n',
    '２０２４-01-02T03:04:05Z', '+2024-01-02T03:04:05Z', '2024-1-02T03:04:05Z', '', 20240102, null,
  ]) {
    assert.equal(parseUtcTimestamp(s), null, JSON.stringify(s));
  }
});

test('instants are exact nanoseconds; ordering is by instant, not by string', () => {
  const a = parseUtcTimestamp('2024-01-01T00:00:00.5Z');
  const b = parseUtcTimestamp('2024-01-01T00:00:00Z');
  assert.equal(a.ns - b.ns, 500_000_000n);
  assert.ok('2024-01-01T00:00:00.5Z' < '2024-01-01T00:00:00Z'); // string order is the other way
  assert.equal(parseUtcTimestamp('1970-01-01T00:00:00Z').ns, 0n);
  // 2000-03-01 - 1970-01-01 = 30 years * 365 + 7 leap days (72,76,80,84,88,92,96) + 31 + 29 = 11017 days
  assert.equal(parseUtcTimestamp('2000-03-01T00:00:00Z').ns, 11017n * 86_400n * 1_000_000_000n);
  assert.equal(parseUtcTimestamp('1969-12-31T23:59:59.999999999Z').ns, -1n);
});

test('age_days: exact duration / 86400 s, rounded once', () => {
  const now = parseUtcTimestamp('2024-03-01T00:00:00Z').ns;
  // 2024-01-31 -> 2024-03-01 = 1 (rest of Jan) + 29 (Feb 2024) = 30 days
  assert.equal(ageDays(now, parseUtcTimestamp('2024-01-31T00:00:00Z').ns), 30);
  // 12 h = 0.5 day
  assert.equal(ageDays(now, parseUtcTimestamp('2024-02-29T12:00:00Z').ns), 0.5);
  // future: negative
  assert.equal(ageDays(now, parseUtcTimestamp('2024-03-02T00:00:00Z').ns), -1);
  // 1 ns: 1 / 86 400 000 000 000 (both operands exact doubles -> one IEEE division is correct)
  assert.equal(ageDays(1n, 0n), 1 / 86400000000000);
  // 0001-01-01T00:00:00.000000001Z .. 9999-12-31T23:59:59.999999999Z:
  //   3 652 058 days + 86 399.999 999 998 s = 315 537 897 599 999 999 998 ns -> 3652059 (checked with Python fractions)
  const lo = parseUtcTimestamp('0001-01-01T00:00:00.000000001Z').ns;
  const hi = parseUtcTimestamp('9999-12-31T23:59:59.999999999Z').ns;
  assert.equal(hi - lo, 315537897599999999998n);
  assert.equal(ageDays(hi, lo), 3652059);
});

test('age_days avoids double rounding for differences above 2^53 ns', () => {
  // diff = 65 849 197 552 048 910 837 ns (> 2^53). Exact quotient rounds to 762143.4901857512
  // (Python float(Fraction(diff, 86400*10**9))). Number(diff) / 8.64e13 rounds twice and gives
  // 762143.4901857513.
  const diff = 65849197552048910837n;
  assert.equal(Number(diff) / 8.64e13, 762143.4901857513);
  assert.equal(ageDays(diff, 0n), 762143.4901857512);
});
