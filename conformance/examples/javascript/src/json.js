'use strict';
// Strict JSON for store lines and trust snapshots (INT-15, INT-16, INT-17, INT-18).
//
// A text is accepted only if ALL hold:
//   a) its bytes are valid UTF-8: TextDecoder('utf-8', {fatal: true}) rejects overlongs, UTF-8
//      encoded surrogates (ED A0..BF xx) and bytes F5..FF;
//   b) it does not start with a BOM: ignoreBOM: true makes the decoder KEEP a leading U+FEFF
//      (the default would silently strip it), and JSON.parse then rejects it, because U+FEFF is
//      not JSON whitespace;
//   c) it is exactly one RFC 8259 JSON text: V8's JSON.parse rejects NaN, Infinity, single
//      quotes, trailing commas, comments, leading zeros, raw control characters and trailing
//      garbage. Duplicate names: last one wins (INT-16), as JSON.parse specifies;
//   d) no string (member names included) contains an escaped lone surrogate (INT-15);
//   e) no number rounds to +-Infinity (INT-17: 1e400);
//   f) nesting depth <= 64 (INT-18; the outermost array/object is depth 1).
//
// d), e), f) are checked LEXICALLY on the text, not on the parsed value: JSON.parse's last-wins
// rule silently discards an overwritten duplicate member, and with it a lone surrogate, an
// infinite number or a deep value that the line contains. INT-15 says "a string anywhere in it",
// INT-18 "a line whose JSON nesting depth exceeds 64": the text is what is judged.
// (See the README findings: a parser that checks the parsed value would disagree on
// {"a":"\ud800","a":"x"}.)

const MAX_DEPTH = 64;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decode strictly; returns the string or null. */
function decodeUtf8Strict(bytes) {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Lexical checks d), e), f) on a text that JSON.parse already accepted (so the token structure
 * is known to be valid JSON). Returns null when fine, else a short reason.
 */
function lexicalViolation(text) {
  let depth = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      let escaped = false;
      for (;;) {
        const d = text.charCodeAt(j);
        if (d === 0x5c /* \ */) {
          escaped = true;
          j += 2;
        } else if (d === 0x22) break;
        else j++;
      }
      // Raw surrogates cannot occur (the text came from valid UTF-8); only \uD8xx escapes can
      // produce a lone one. Decode the single token and ask.
      if (escaped && text.slice(i, j + 1).search(/\\u[dD][89a-fA-F]/) !== -1) {
        if (!JSON.parse(text.slice(i, j + 1)).isWellFormed()) return 'lone surrogate escape';
      }
      i = j + 1;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > MAX_DEPTH) return `nesting depth exceeds ${MAX_DEPTH}`;
      i++;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
      i++;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if ((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) j++;
        else break;
      }
      // Number(token) uses the same StringToNumber rounding as JSON.parse.
      if (!Number.isFinite(Number(text.slice(i, j)))) return 'number out of double range';
      i = j;
    } else {
      i++;
    }
  }
  return null;
}

/**
 * Parse bytes as one strict JSON text. Returns {ok: true, value} or {ok: false, reason}.
 */
function parseStrictJson(bytes) {
  const text = decodeUtf8Strict(bytes);
  if (text === null) return { ok: false, reason: 'not valid UTF-8' };
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // SyntaxError, or RangeError for absurd nesting: either way not an acceptable text.
    return { ok: false, reason: 'not a single RFC 8259 JSON text' };
  }
  const violation = lexicalViolation(text);
  if (violation !== null) return { ok: false, reason: violation };
  return { ok: true, value };
}

function isPlainObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

module.exports = { parseStrictJson, decodeUtf8Strict, lexicalViolation, isPlainObject, MAX_DEPTH };
