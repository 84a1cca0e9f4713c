'use strict';
// Exact IEEE-754 binary64 helpers on top of BigInt (used by timestamps.js and recency.js).
//
// Nothing here calls Math.pow or relies on a libm: results are built from their bit patterns,
// so they are exact / correctly rounded by construction on every engine.

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

function doubleFromBits(bits) {
  U64[0] = bits;
  return F64[0];
}

function bitsOfDouble(x) {
  F64[0] = x;
  return U64[0];
}

/** x = m * 2^q exactly, m a non-negative BigInt (< 2^53), for finite x >= 0. */
function decompose(x) {
  if (!(x >= 0) || !Number.isFinite(x)) throw new RangeError('decompose needs a finite x >= 0');
  const bits = bitsOfDouble(x);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  if (biased === 0) return { m: fraction, q: -1074 }; // zero or subnormal
  return { m: fraction | (1n << 52n), q: biased - 1075 };
}

/** 2^e exactly, for integer e in [-1074, 1023]. */
function pow2(e) {
  if (!Number.isInteger(e) || e < -1074 || e > 1023) throw new RangeError(`pow2(${e}) out of range`);
  if (e >= -1022) return doubleFromBits(BigInt(e + 1023) << 52n);
  return doubleFromBits(1n << BigInt(e + 1074)); // subnormal
}

function bitLength(n) {
  return n === 0n ? 0 : n.toString(2).length;
}

/**
 * The double nearest to the rational n / d (round half to even), n and d BigInt, d > 0.
 * Only the normal range is supported (enough for timestamps in years 0001..9999).
 */
function divToDouble(n, d) {
  if (d <= 0n) throw new RangeError('divToDouble needs d > 0');
  if (n === 0n) return 0;
  const negative = n < 0n;
  const a = negative ? -n : n;
  // Choose k with 2^53 <= floor(a * 2^k / d) < 2^54: a 54-bit quotient = 53 bits + 1 rounding bit.
  let k = 53 - (bitLength(a) - bitLength(d));
  const quotient = (kk) => {
    const num = kk >= 0 ? a << BigInt(kk) : a;
    const den = kk >= 0 ? d : d << BigInt(-kk);
    return [num / den, num % den];
  };
  let [q, r] = quotient(k);
  if (q < 1n << 53n) {
    k += 1;
    [q, r] = quotient(k);
  }
  // q in [2^53, 2^54): drop the last bit with round-half-even; r != 0 is the sticky bit.
  let m = q >> 1n;
  const roundBit = q & 1n;
  if (roundBit === 1n && (r !== 0n || (m & 1n) === 1n)) m += 1n;
  // value = m * 2^(1 - k), m in [2^52, 2^53]; Number(m) is exact, the scaling by an exact
  // power of two is exact in the normal range.
  const e = 1 - k;
  if (e + 52 < -1022 || e + 53 > 1023) throw new RangeError('divToDouble: result outside the normal range');
  const value = Number(m) * pow2(e);
  return negative ? -value : value;
}

module.exports = { doubleFromBits, bitsOfDouble, decompose, pow2, bitLength, divToDouble };
