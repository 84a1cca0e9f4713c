'use strict';
// SCORING (DETERMINISTIC) and Tie-breaking (INT-04, INT-09, INT-10, INT-29, INT-33).
//
// S6-SCORE-*: "base = term_match_count", "tag_bonus = overlap * 0.5",
//             "recency_bonus = weight (bounded [0,1])", "score = base + tag_bonus + recency_bonus"
// INT-04: evaluated exactly as written, left to right, in binary64: (base + tag_bonus) + recency.
const { normalizeText, compareCodePoints } = require('./text');
const { recencyBonus } = require('./recency');

/**
 * @param c candidate {text, tags, ts}
 * @param terms normalized, deduplicated query terms
 * @param opts {tagOverlap: bool, recency: bool, nowNs: BigInt | null, halfLifeDays: number}
 */
function scoreCandidate(c, terms, opts) {
  // INT-09: match against the text normalized like the query; plain code-point substring search.
  // For well-formed strings UTF-16 substring search is code-point substring search: a
  // well-formed needle cannot start on a low surrogate or end on a high surrogate.
  const haystack = normalizeText(c.text);
  // INT-10: count distinct terms that occur at least once; overlapping terms count independently.
  let base = 0;
  for (const t of terms) if (haystack.includes(t)) base++;
  // Tag overlap: terms equal to at least one normalized tag.
  let overlap = 0;
  if (opts.tagOverlap) {
    const tags = new Set(c.tags);
    for (const t of terms) if (tags.has(t)) overlap++;
  }
  const tagBonus = overlap * 0.5;
  // INT-36: recency only when enabled AND now_utc present AND the candidate has a valid ts_utc.
  const recency = opts.recency && opts.nowNs !== null && c.ts !== null ? recencyBonus(opts.nowNs, c.ts.ns, opts.halfLifeDays) : 0;
  return base + tagBonus + recency; // left to right: (base + tagBonus) + recency
}

/**
 * Tie-breaking (STABLE), INT-33:
 *   1) score descending  2) ts_utc descending by instant, missing last
 *   3) store_path ascending  4) memory_id ascending  5) record_hash ascending  (code point)
 *   6) read order (unobservable: only byte-identical records in one store get here)
 */
function compareCandidates(a, b) {
  if (a.score !== b.score) return a.score > b.score ? -1 : 1;
  if (a.ts !== null || b.ts !== null) {
    if (a.ts === null) return 1;
    if (b.ts === null) return -1;
    if (a.ts.ns !== b.ts.ns) return a.ts.ns > b.ts.ns ? -1 : 1;
  }
  return (
    compareCodePoints(a.store_path, b.store_path) ||
    compareCodePoints(a.memory_id, b.memory_id) ||
    compareCodePoints(a.record_hash, b.record_hash) ||
    a.readIndex - b.readIndex
  );
}

module.exports = { scoreCandidate, compareCandidates };
