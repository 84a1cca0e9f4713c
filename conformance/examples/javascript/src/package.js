'use strict';
// ContextPackage assembly and package_hash (OUTPUT CONTRACT, HASHING; INT-03, INT-28, INT-32).
const { canonicalBytes, sha256Hex } = require('./canonical');

const CONTROLLER_VERSION = 'phase6-v1'; // S6-VER-01

/**
 * @param q {raw, query_hash}
 * @param budget {maxExcerptTokens, perItem (effective), maxItems}
 * @param selected [{candidate, excerpt, excerpt_tokens}] in rank order
 * @param entries all record lines in read order; dropped ones carry .reason
 * @param used sum of selected excerpt_tokens
 */
function buildPackage(q, budget, selected, entries, used) {
  const pkg = {
    query: { raw: q.raw, query_hash: q.query_hash },
    budget: {
      max_excerpt_tokens: budget.maxExcerptTokens,
      used_excerpt_tokens: used,
      // never negative: selection never exceeds the budget (INT-32); floor at 0 kept for the letter
      remaining_excerpt_tokens: Math.max(0, budget.maxExcerptTokens - used),
      per_item_max_excerpt_tokens: budget.perItem, // effective value (INT-30)
      max_items: budget.maxItems,
    },
    selection: {
      selected: selected.map(({ candidate: c, excerpt, excerpt_tokens }) => ({
        memory_id: c.memory_id,
        record_hash: c.record_hash,
        store_path: c.store_path,
        score: c.score,
        excerpt,
        excerpt_tokens,
      })),
      // INT-28: every non-selected record line, in read order, whatever the reason.
      dropped: entries
        .filter((e) => e.reason !== undefined)
        .map((e) => ({ memory_id: e.memory_id, record_hash: e.record_hash, store_path: e.store_path, reason: e.reason })),
    },
    controller_version: CONTROLLER_VERSION,
  };
  // INT-03: hash the whole package minus package_hash itself.
  const hash = sha256Hex(canonicalBytes(pkg));
  return {
    query: pkg.query,
    budget: pkg.budget,
    selection: pkg.selection,
    package_hash: hash,
    controller_version: CONTROLLER_VERSION,
  };
}

module.exports = { buildPackage, CONTROLLER_VERSION };
