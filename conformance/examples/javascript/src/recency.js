'use strict';
// Recency weight (SCORING, INT-04, INT-35, INT-36).
//
//   age_days      = (now_utc - ts_utc) in days            (timestamps.ageDays, one rounding)
//   exponent      = age_days / recency_half_life_days      (one IEEE division)
//   weight        = 0.5 ** exponent                        (INT-04: MUST be correctly rounded)
//   recency_bonus = min(1, max(0, weight))                 (INT-35: "bounded [0,1]" = clamp)
//
// INT-04 HAZARD: V8's Math.pow (like glibc's pow) is NOT guaranteed to be correctly rounded; a
// 1-ulp difference changes the score's last digit and therefore package_hash. So halfPow()
// below computes the correctly rounded value of 2^-e with BigInt fixed-point arithmetic
// (Ziv's strategy: evaluate with an error bound, widen the precision if the rounding is not
// decided). It never calls Math.pow.
const { decompose, doubleFromBits } = require('./fp');
const { ageDays } = require('./timestamps');

// ---- ln 2 to W bits: ln2 = 2 * atanh(1/3) = 2 * sum_{k>=0} 1 / ((2k+1) * 3^(2k+1)).
const LN2_CACHE = new Map();
function ln2Fixed(W) {
  if (LN2_CACHE.has(W)) return LN2_CACHE.get(W);
  const G = BigInt(W + 16); // 16 guard bits; each term truncates by < 1 unit
  let power = (1n << G) / 3n; // 3^-(2k+1) * 2^G
  let sum = 0n;
  for (let k = 1n; power !== 0n; k += 2n) {
    sum += power / k;
    power /= 9n;
  }
  const value = (2n * sum) >> 16n; // error < 1 unit at W bits for any practical W
  LN2_CACHE.set(W, value);
  return value;
}

/** Y with |Y - 2^(fNum / 2^Q) * 2^P| <= 2, for 0 <= fNum < 2^Q. */
function exp2FracFixed(fNum, Q, P) {
  const GUARD = 32n;
  const W = BigInt(P) + GUARD;
  const one = 1n << W;
  const a = (fNum * ln2Fixed(Number(W))) >> BigInt(Q); // f * ln2 in [0, ln2), error <= 2 units
  // exp(a) by Taylor series; a < 0.7 so terms shrink fast; each term truncates by <= 2 units.
  let term = one;
  let sum = one;
  for (let k = 1n; term !== 0n; k++) {
    term = ((term * a) >> W) / k;
    sum += term;
  }
  // Accumulated error at W bits is a few hundred units at most: < 1 unit after dropping GUARD bits.
  return sum >> GUARD;
}

/**
 * Correctly rounded (round-half-even) double of 0.5 ** e = 2^-e, for finite e > 0.
 * Subnormal results and underflow to 0 are handled exactly.
 */
function halfPow(e) {
  if (!(e > 0) || !Number.isFinite(e)) throw new RangeError('halfPow needs a finite e > 0');
  // 1) e = m * 2^q exactly. Split -e = n + f with integer n and f in [0, 1): f = fNum / 2^Q.
  const { m, q } = decompose(e);
  let n, fNum, Q;
  if (q >= 0) {
    n = -(m << BigInt(q));
    fNum = 0n;
    Q = 0;
  } else {
    Q = -q;
    const ceil = (m + (1n << BigInt(Q)) - 1n) >> BigInt(Q); // ceil(e)
    n = -ceil;
    fNum = (ceil << BigInt(Q)) - m; // f * 2^Q = ceil(e) * 2^Q - m
  }
  // 2) The result 2^n * 2^f lies in [2^n, 2^(n+1)). Below 2^-1075 it rounds to 0.
  if (n < -1075n) return 0;
  const nn = Number(n); // in [-1075, -1]
  // s = number of bits kept below the leading bit: 52 for normal results, fewer for subnormals.
  const s = nn >= -1022 ? 52 : nn + 1074; // s in [-1, 52]
  // 3) M = round(2^f * 2^s), the significand in units of the result's last place.
  let M;
  if (fNum === 0n) {
    // Exact power of two. Only n = -1075 needs rounding: 2^-1075 is half the smallest
    // subnormal, a tie, which rounds to even (0).
    if (s < 0) return 0;
    M = 1n << BigInt(s);
  } else {
    // 2^f is irrational for 0 < f < 1 (Gelfond-Schneider), so it is never exactly a tie; widen
    // the precision until the error interval does not straddle a rounding boundary.
    for (let P = 128; ; P *= 2) {
      const Y = exp2FracFixed(fNum, Q, P); // ~ 2^f * 2^P, error <= 2
      const shift = BigInt(P - s);
      const half = 1n << (shift - 1n);
      const lo = (Y - 2n + half) >> shift;
      const hi = (Y + 2n + half) >> shift;
      if (lo === hi) {
        M = lo;
        break;
      }
      if (P > 1 << 16) throw new Error('halfPow: rounding not decided'); // unreachable in practice
    }
  }
  // 4) Assemble the bit pattern. For normal results the significand M in [2^52, 2^53] sits on
  //    top of the biased exponent (a carry to 2^53 correctly bumps the exponent); for
  //    subnormal results the bit pattern is M itself (a carry to 2^52 becomes the smallest normal).
  if (nn >= -1022) return doubleFromBits((BigInt(nn + 1023) << 52n) + M - (1n << 52n));
  return doubleFromBits(M);
}

/**
 * INT-35/INT-36 recency bonus for one candidate; the caller has already checked that recency is
 * enabled, now_utc is present and the candidate has a valid ts_utc.
 */
function recencyBonus(nowNs, tsNs, halfLifeDays) {
  const age = ageDays(nowNs, tsNs); // one rounding (INT-35)
  const exponent = age / halfLifeDays; // one rounding (INT-04)
  // weight = 0.5 ** exponent. For exponent <= 0 (ts_utc at or after now_utc) the weight is >= 1
  // and the clamp makes it exactly 1, so the value of pow is not needed there.
  if (!(exponent > 0)) return 1;
  const weight = halfPow(exponent);
  return Math.min(1, Math.max(0, weight));
}

module.exports = { halfPow, recencyBonus, exp2FracFixed, ln2Fixed };
