'use strict';
// TRUNCATION (DETERMINISTIC EXCERPT) and the token estimator (INT-31, INT-46).
//
// S6-TRUNC-02: "strip leading/trailing whitespace"          (White_Space table, INT-05)
// S6-TRUNC-03: "If text is empty after strip => excerpt is "" and excerpt_tokens=0"
// S6-TRUNC-06: "excerpt = first max_bytes of UTF-8 bytes of normalized text, decoded with strict
//               UTF-8. If a cut splits a codepoint, cut back to last valid boundary"
// S6-TOK-01:   "excerpt_tokens = ceil(utf8_byte_length(excerpt) / 4)"
// The cut excerpt is NOT stripped again (INT-31).
const { trimWhiteSpace } = require('./text');
const { decodeUtf8Strict } = require('./json');

function estimateTokens(byteLength) {
  return Math.ceil(byteLength / 4);
}

/**
 * @param {string} text the record text exactly as read
 * @param {number} perItemTokens the effective per-item cap min(per_item, max_excerpt_tokens)
 */
function buildExcerpt(text, perItemTokens) {
  const stripped = trimWhiteSpace(text);
  if (stripped === '') return { excerpt: '', excerpt_tokens: 0 };
  const bytes = Buffer.from(stripped, 'utf8'); // text is well-formed (INT-15), so this is exact
  const maxBytes = perItemTokens * 4; // S6-TRUNC-05
  if (bytes.length <= maxBytes) return { excerpt: stripped, excerpt_tokens: estimateTokens(bytes.length) };
  let cut = maxBytes;
  // Move back while the byte at the cut is a UTF-8 continuation byte (10xxxxxx): then the cut
  // would split a code point.
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  const excerpt = decodeUtf8Strict(bytes.subarray(0, cut));
  if (excerpt === null) throw new Error('excerpt cut produced invalid UTF-8'); // cannot happen
  return { excerpt, excerpt_tokens: estimateTokens(cut) };
}

module.exports = { buildExcerpt, estimateTokens };
