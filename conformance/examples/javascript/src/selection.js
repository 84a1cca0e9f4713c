'use strict';
// Global selection under budget (TOKEN BUDGETING, TRUNCATION; INT-26, INT-27, INT-29).
//
// S6-TOK-04: "Selection MUST stop when: used_excerpt_tokens would exceed max_excerpt_tokens, OR
//             selected count reaches max_items"
// INT-26 (erratum): stop at the first candidate that would overflow; it and every later one are
//   budget_exhausted, even ones that would still fit (a later zero-token excerpt included).
// INT-27: once selected count == max_items, every remaining candidate is max_items_reached; the
//   max_items check comes before the budget check.
// INT-29: no score threshold.
const { buildExcerpt } = require('./excerpt');

const REASONS = Object.freeze({
  INVALID: 'invalid_record_schema',
  TRUST: 'trust_denied',
  BUDGET: 'budget_exhausted',
  MAX_ITEMS: 'max_items_reached',
});

/**
 * @param ranked candidates in rank order (each gets .reason when dropped)
 * @param budget {maxExcerptTokens, perItem (effective), maxItems}
 * @returns {selected: [{candidate, excerpt, excerpt_tokens}], used}
 */
function select(ranked, budget) {
  const selected = [];
  let used = 0;
  let stopReason = null;
  for (const c of ranked) {
    if (stopReason === null && selected.length >= budget.maxItems) stopReason = REASONS.MAX_ITEMS;
    if (stopReason !== null) {
      c.reason = stopReason;
      continue;
    }
    const { excerpt, excerpt_tokens } = buildExcerpt(c.text, budget.perItem);
    if (used + excerpt_tokens > budget.maxExcerptTokens) {
      stopReason = REASONS.BUDGET;
      c.reason = stopReason;
      continue;
    }
    used += excerpt_tokens;
    selected.push({ candidate: c, excerpt, excerpt_tokens });
  }
  return { selected, used };
}

module.exports = { select, REASONS };
