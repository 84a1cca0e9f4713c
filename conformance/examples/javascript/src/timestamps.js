'use strict';
// UTC timestamps (INT-20, INT-21) and age_days (INT-35).
//
// Date.parse is NOT used: it is lenient (accepts many non-RFC-3339 forms, implementation-
// defined fallbacks) and only has millisecond precision. The pinned grammar is:
//   YYYY-MM-DD 'T' hh:mm:ss [ '.' 1*9DIGIT ] ( 'Z' / '+00:00' )
// 'T' and 'Z' uppercase only; DIGIT is ASCII 0-9; a real Gregorian date in years 0001..9999;
// hh <= 23, mm <= 59, ss <= 59 (no leap second).
const { divToDouble } = require('./fp');

// JS '$' (without the m flag) matches only at the very end, unlike Python's '$' which also
// matches before a final '\n'. [0-9] instead of \d for clarity (JS \d is ASCII-only anyway).
const TS_RE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?(Z|\+00:00)$/;

const NS_PER_SECOND = 1_000_000_000n;
const NS_PER_DAY = 86_400n * NS_PER_SECOND; // 86 400 000 000 000 ns

function isLeapYear(y) {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y, m) {
  return [31, isLeapYear(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's algorithm). */
function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400; // [0, 399]
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1; // [0, 365]
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy; // [0, 146096]
  return era * 146097 + doe - 719468;
}

/**
 * Parse a UTC timestamp. Returns {ns, normalized} (ns: BigInt nanoseconds since 1970-01-01T00:00Z)
 * or null when s is not a string matching the pinned grammar with a real date/time.
 * INT-21 normalized form: YYYY-MM-DDThh:mm:ss, then '.' + fraction digits without trailing zeros
 * (nothing when absent or all zeros), then 'Z' ('+00:00' becomes 'Z').
 */
function parseUtcTimestamp(s) {
  if (typeof s !== 'string') return null;
  const m = TS_RE.exec(s);
  if (m === null) return null;
  const [, ys, mos, ds, hs, mis, ss, frac] = m;
  const y = Number(ys), mo = Number(mos), d = Number(ds), h = Number(hs), mi = Number(mis), sec = Number(ss);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  if (h > 23 || mi > 59 || sec > 59) return null;
  const fracDigits = (frac || '').replace(/0+$/, '');
  const fracNs = frac === undefined ? 0n : BigInt(frac.padEnd(9, '0'));
  const seconds = BigInt(daysFromCivil(y, mo, d)) * 86_400n + BigInt(h * 3600 + mi * 60 + sec);
  return {
    ns: seconds * NS_PER_SECOND + fracNs,
    normalized: `${ys}-${mos}-${ds}T${hs}:${mis}:${ss}${fracDigits ? '.' + fracDigits : ''}Z`,
  };
}

/**
 * INT-35: age_days = (now - ts) as an exact duration / 86400 s, rounded ONCE to the nearest
 * double. The difference is an exact BigInt of nanoseconds; divToDouble rounds the exact
 * rational diff / 86 400 000 000 000 correctly. (Number(diffNs) / 864e11 would round twice
 * when |diffNs| > 2^53 ns, i.e. for ages above ~104 days.)
 */
function ageDays(nowNs, tsNs) {
  return divToDouble(nowNs - tsNs, NS_PER_DAY);
}

module.exports = { parseUtcTimestamp, ageDays, isLeapYear, daysFromCivil, NS_PER_DAY };
