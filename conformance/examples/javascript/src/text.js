'use strict';
// Whitespace, lowercasing, code-point length and code-point ordering.
//
// INT-05: whitespace is exactly the 25 Unicode White_Space code points. NOT JavaScript's \s
//   (which adds U+FEFF and omits U+0085) and NOT String.prototype.trim (which strips U+FEFF).
// INT-06: 'lower' is String.prototype.toLowerCase() (locale-independent full mapping with
//   Final_Sigma; never toLocaleLowerCase).
// INT-07: lengths count code points ([...s].length), not UTF-16 units (s.length).
// INT-12, INT-25, INT-33: string ORDER is by code point, not by UTF-16 code unit.

// The table (INT-05), one entry per code point or range, 25 code points in total.
const WHITE_SPACE_RANGES = Object.freeze([
  [0x0009, 0x000d], // 5: TAB LF VT FF CR
  [0x0020, 0x0020], // 1: SPACE
  [0x0085, 0x0085], // 1: NEXT LINE
  [0x00a0, 0x00a0], // 1: NO-BREAK SPACE
  [0x1680, 0x1680], // 1: OGHAM SPACE MARK
  [0x2000, 0x200a], // 11: EN QUAD .. HAIR SPACE
  [0x2028, 0x2028], // 1: LINE SEPARATOR
  [0x2029, 0x2029], // 1: PARAGRAPH SEPARATOR
  [0x202f, 0x202f], // 1: NARROW NO-BREAK SPACE
  [0x205f, 0x205f], // 1: MEDIUM MATHEMATICAL SPACE
  [0x3000, 0x3000], // 1: IDEOGRAPHIC SPACE
]);

// All 25 are BMP code points, so a character class over UTF-16 units is exact. Written out
// explicitly (no \s) and built from the table above.
const hex4 = (n) => '\\u' + n.toString(16).padStart(4, '0');
const WS_CLASS =
  '[' + WHITE_SPACE_RANGES.map(([a, b]) => (a === b ? hex4(a) : hex4(a) + '-' + hex4(b))).join('') + ']';
const WS_RUN = new RegExp(WS_CLASS + '+', 'g');
const WS_LEADING = new RegExp('^' + WS_CLASS + '+');
const WS_TRAILING = new RegExp(WS_CLASS + '+$');

function isWhiteSpace(codePoint) {
  for (const [a, b] of WHITE_SPACE_RANGES) if (codePoint >= a && codePoint <= b) return true;
  return false;
}

/** Remove leading and trailing White_Space (INT-05). */
function trimWhiteSpace(s) {
  return s.replace(WS_LEADING, '').replace(WS_TRAILING, '');
}

/** Trim, then replace every internal White_Space run by one U+0020. */
function collapseWhiteSpace(s) {
  return trimWhiteSpace(s).replace(WS_RUN, ' ');
}

/** INT-06: Unicode default full lowercase mapping, locale-independent. */
function lower(s) {
  return s.toLowerCase();
}

/**
 * The one normalization of the contract (INT-09, INT-11): trim, collapse White_Space runs to
 * one space, lowercase. (Lowercasing never creates or removes White_Space, and Final_Sigma
 * contexts are not affected by whitespace collapsing, so the order of the steps is immaterial.)
 */
function normalizeText(s) {
  return lower(collapseWhiteSpace(s));
}

/** INT-07: length in code points. */
function codePointLength(s) {
  let n = 0;
  for (const _ of s) n++; // string iterator walks code points
  return n;
}

/**
 * Compare two well-formed strings by code point (equivalently by UTF-8 bytes).
 * JS '<' and the default sort compare UTF-16 code units, which orders a supplementary
 * character (surrogate pair, units D800..DFFF) BEFORE U+E000..U+FFFF; by code point it comes
 * after. At the first differing unit we remap: surrogates (which stand for code points
 * >= 0x10000) move above every BMP unit, and units >= 0xE000 move down by 0x800 to close the gap.
 */
function compareCodePoints(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      x = x >= 0xd800 && x <= 0xdfff ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
      y = y >= 0xd800 && y <= 0xdfff ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

module.exports = {
  WHITE_SPACE_RANGES,
  isWhiteSpace,
  trimWhiteSpace,
  collapseWhiteSpace,
  lower,
  normalizeText,
  codePointLength,
  compareCodePoints,
};
