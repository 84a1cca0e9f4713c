'use strict';
// Canonical JSON = RFC 8785 JSON Canonicalization Scheme (INT-01) and SHA-256 helpers.
//
// S6-HASH-02: "keys sorted, UTF-8, no whitespace variance."
//
// JS-specific notes:
// - Numbers: JSON.stringify(number) is ECMAScript Number::toString, which is exactly what
//   RFC 8785 section 3.2.2.3 prescribes (2.0 -> "2", 1e21 -> "1e+21", 1e-7 -> "1e-7", -0 -> "0").
//   NaN / +-Infinity cannot be serialized (JSON.stringify would silently write null): we throw.
// - Strings: JSON.stringify(string) (ECMA-262 QuoteJSONString) escapes exactly '"', '\\' and
//   U+0000..U+001F, with the short forms \b \t \n \f \r and lowercase \u00xx otherwise; it
//   leaves DEL, U+2028, U+2029 and all other characters raw. That is RFC 8785 3.2.2.2.
//   A lone surrogate would be written as a \udxxx escape (well-formed JSON.stringify), which
//   JCS forbids: we check String.prototype.isWellFormed first and throw.
// - Keys: RFC 8785 3.2.3 sorts member names by their UTF-16 code units. Array.prototype.sort
//   without a comparator compares strings by UTF-16 code units, so the default sort is JCS.
//   (This is the ONLY place in the implementation where UTF-16 order is wanted; every other
//   string ordering of the contract is by code point, see text.js compareCodePoints.)
const crypto = require('node:crypto');

class CanonicalizationError extends Error {}

function canonicalString(s) {
  if (!s.isWellFormed()) throw new CanonicalizationError('string contains a lone surrogate');
  return JSON.stringify(s);
}

function canonicalize(value) {
  switch (typeof value) {
    case 'string':
      return canonicalString(value);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalizationError(`cannot canonicalize ${value}`);
      return JSON.stringify(value); // Number::toString; -0 -> "0"
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      // Plain loops and string concatenation (no intermediate arrays): this runs once per record
      // (record_hash) and over the whole package (package_hash).
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalize(value[i]);
        return out + ']';
      }
      const keys = Object.keys(value);
      if (keys.length > 1) keys.sort(); // UTF-16 code-unit order (RFC 8785 3.2.3)
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        out += (i === 0 ? '' : ',') + canonicalString(keys[i]) + ':' + canonicalize(value[keys[i]]);
      }
      return out + '}';
    }
    default:
      throw new CanonicalizationError(`cannot canonicalize a ${typeof value}`);
  }
}

/** UTF-8 bytes of the canonical form. */
function canonicalBytes(value) {
  return Buffer.from(canonicalize(value), 'utf8');
}

/** Lowercase hex SHA-256 of bytes (Buffer/Uint8Array) or of a string's UTF-8 bytes. */
function sha256Hex(data) {
  return crypto.createHash('sha256').update(data).digest('hex');
}

module.exports = { canonicalize, canonicalBytes, sha256Hex, CanonicalizationError };
