'use strict';
// INPUT CONTRACT validation, in the fixed order of INT-40 / specs/errors.md (first failure wins):
//   1 request object  2 query  3 store_paths  4 budget  5 scoring  6 trust_filter  7 now_utc
//   8 unknown top-level members (first in code-point order)
// Within a group: the defined members in the table's order, then unknown members (first in
// code-point order), all with the group's code. null is never 'absent' (INT-42). An int is an
// integral JSON number within +-(2^53-1), never a bool or a string (INT-41); 10.0 and 1e1 are 10
// (JSON.parse cannot tell them apart anyway).
const { MemoryReadError, pointer, show } = require('./errors');
const { trimWhiteSpace, compareCodePoints } = require('./text');
const { parseUtcTimestamp } = require('./timestamps');
const { isPlainObject } = require('./json');

// Rules as data: the members the INPUT CONTRACT defines, in the order they are checked.
const TOP_LEVEL_MEMBERS = Object.freeze(['query', 'store_paths', 'budget', 'scoring', 'trust_filter', 'now_utc']);
const GROUP_MEMBERS = Object.freeze({
  budget: ['max_excerpt_tokens', 'per_item_max_excerpt_tokens', 'max_items'],
  scoring: ['enable_recency_weight', 'recency_half_life_days', 'enable_tag_overlap', 'query_terms'],
  trust_filter: ['deny_classifications', 'trust_snapshot_path'],
});
const DEFAULTS = Object.freeze({
  max_items: 50, // "max_items: int (optional, defaults to 50; hard cap)"
  enable_recency_weight: false,
  recency_half_life_days: 30,
  enable_tag_overlap: true,
  deny_classifications: Object.freeze(['malicious']),
});

const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const fail = (code, path, message, clause) => {
  throw new MemoryReadError(code, path, message, clause);
};

function isInt(v) {
  return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER;
}

function describeNotInt(v) {
  return typeof v === 'number' && Number.isInteger(v) ? `${show(v)} is outside +-(2^53-1)` : `${show(v)} is not an integer`;
}

/** First member name of obj not in `known`, in code-point order, or undefined. */
function firstUnknown(obj, known) {
  const unknown = Object.keys(obj).filter((k) => !known.includes(k));
  return unknown.sort(compareCodePoints)[0];
}

/**
 * Not pinned by the register: a request string that is not well-formed Unicode (a lone
 * surrogate, e.g. "\ud800" in the request JSON) cannot be UTF-8 encoded, hashed (JCS) or used as a
 * file name. We reject it with the member's group code (see README findings).
 */
function wellFormed(s) {
  return s.isWellFormed();
}

function checkStringList(value, code, path, what, { nonEmpty }) {
  if (!Array.isArray(value)) fail(code, path, `${what} must be an array of strings, got ${show(value)}`);
  value.forEach((item, i) => {
    if (typeof item !== 'string') fail(code, `${path}/${i}`, `${what}[${i}] must be a string, got ${show(item)}`);
    if (nonEmpty && item === '') fail(code, `${path}/${i}`, `${what}[${i}] must not be empty`);
    if (!wellFormed(item)) fail(code, `${path}/${i}`, `${what}[${i}] contains a lone surrogate`);
  });
}

function validateBudget(req) {
  const code = 'invalid_budget';
  if (!own(req, 'budget')) fail(code, '/budget', 'budget is missing');
  const b = req.budget;
  if (!isPlainObject(b)) fail(code, '/budget', `budget must be an object, got ${show(b)}`);
  // S6-ERR-04: "budget.max_excerpt_tokens <= 0"
  if (!own(b, 'max_excerpt_tokens')) fail(code, '/budget/max_excerpt_tokens', 'budget.max_excerpt_tokens is missing');
  const max = b.max_excerpt_tokens;
  if (!isInt(max)) fail(code, '/budget/max_excerpt_tokens', `budget.max_excerpt_tokens: ${describeNotInt(max)}`);
  if (max <= 0) fail(code, '/budget/max_excerpt_tokens', `budget.max_excerpt_tokens must be > 0, got ${show(max)}`);
  // INT-30: per_item_max_excerpt_tokens and max_items must be ints >= 1 (S6-INPUT-04/05).
  for (const name of ['per_item_max_excerpt_tokens', 'max_items']) {
    if (!own(b, name)) continue;
    const v = b[name];
    if (!isInt(v)) fail(code, pointer('budget', name), `budget.${name}: ${describeNotInt(v)}`, 'S6-ERR-01');
    if (v <= 0) fail(code, pointer('budget', name), `budget.${name} must be > 0, got ${show(v)}`, 'S6-ERR-01');
  }
  const unknown = firstUnknown(b, GROUP_MEMBERS.budget);
  if (unknown !== undefined) fail(code, pointer('budget', unknown), `budget has an unknown member ${show(unknown)}`, 'S6-ERR-01');
  const perItemRequested = own(b, 'per_item_max_excerpt_tokens') ? b.per_item_max_excerpt_tokens : max;
  return {
    maxExcerptTokens: max,
    // S6-TRUNC-05: "per_item_max_excerpt_tokens = min(per_item_max_excerpt_tokens, max_excerpt_tokens)"
    perItem: Math.min(perItemRequested, max),
    maxItems: own(b, 'max_items') ? b.max_items : DEFAULTS.max_items,
  };
}

function validateScoring(req) {
  const code = 'invalid_scoring';
  const out = {
    recency: DEFAULTS.enable_recency_weight,
    halfLifeDays: DEFAULTS.recency_half_life_days,
    tagOverlap: DEFAULTS.enable_tag_overlap,
    queryTerms: undefined,
  };
  if (!own(req, 'scoring')) return out;
  const s = req.scoring;
  if (!isPlainObject(s)) fail(code, '/scoring', `scoring must be an object, got ${show(s)}`);
  if (own(s, 'enable_recency_weight')) {
    if (typeof s.enable_recency_weight !== 'boolean') {
      fail(code, '/scoring/enable_recency_weight', `scoring.enable_recency_weight must be a boolean, got ${show(s.enable_recency_weight)}`);
    }
    out.recency = s.enable_recency_weight;
  }
  if (own(s, 'recency_half_life_days')) {
    // INT-36: validated whether or not recency is enabled.
    const v = s.recency_half_life_days;
    if (!isInt(v)) fail(code, '/scoring/recency_half_life_days', `scoring.recency_half_life_days: ${describeNotInt(v)}`);
    if (v <= 0) fail(code, '/scoring/recency_half_life_days', `scoring.recency_half_life_days must be > 0, got ${show(v)}`);
    out.halfLifeDays = v;
  }
  if (own(s, 'enable_tag_overlap')) {
    if (typeof s.enable_tag_overlap !== 'boolean') {
      fail(code, '/scoring/enable_tag_overlap', `scoring.enable_tag_overlap must be a boolean, got ${show(s.enable_tag_overlap)}`);
    }
    out.tagOverlap = s.enable_tag_overlap;
  }
  if (own(s, 'query_terms')) {
    checkStringList(s.query_terms, code, '/scoring/query_terms', 'scoring.query_terms', { nonEmpty: false });
    out.queryTerms = s.query_terms;
  }
  const unknown = firstUnknown(s, GROUP_MEMBERS.scoring);
  if (unknown !== undefined) fail(code, pointer('scoring', unknown), `scoring has an unknown member ${show(unknown)}`);
  return out;
}

function validateTrustFilter(req) {
  const code = 'invalid_trust_filter';
  const out = { deny: DEFAULTS.deny_classifications, snapshotPath: null };
  if (!own(req, 'trust_filter')) return out;
  const t = req.trust_filter;
  if (!isPlainObject(t)) fail(code, '/trust_filter', `trust_filter must be an object, got ${show(t)}`);
  if (own(t, 'deny_classifications')) {
    // Element path /trust_filter/deny_classifications/<i>, by analogy with query_terms (errors.md
    // only spells the element path out for scoring; see README findings).
    checkStringList(t.deny_classifications, code, '/trust_filter/deny_classifications', 'trust_filter.deny_classifications', {
      nonEmpty: false,
    });
    out.deny = t.deny_classifications;
  }
  if (own(t, 'trust_snapshot_path')) {
    const p = t.trust_snapshot_path;
    if (typeof p !== 'string' || p === '') {
      fail(code, '/trust_filter/trust_snapshot_path', `trust_filter.trust_snapshot_path must be a non-empty string, got ${show(p)}`);
    }
    if (!wellFormed(p)) fail(code, '/trust_filter/trust_snapshot_path', 'trust_filter.trust_snapshot_path contains a lone surrogate');
    out.snapshotPath = p;
  }
  const unknown = firstUnknown(t, GROUP_MEMBERS.trust_filter);
  if (unknown !== undefined) fail(code, pointer('trust_filter', unknown), `trust_filter has an unknown member ${show(unknown)}`);
  return out;
}

/**
 * Validate a request. Returns
 * {query, storePaths, budget: {maxExcerptTokens, perItem, maxItems},
 *  scoring: {recency, halfLifeDays, tagOverlap, queryTerms}, trust: {deny, snapshotPath}, now}
 */
function validateRequest(req) {
  // 1
  if (!isPlainObject(req)) fail('invalid_request', '', `the request must be a JSON object, got ${show(req)}`);
  // 2  S6-ERR-02: "query missing/empty"; S6-INPUT-01 "non-empty after trim" (White_Space, INT-11)
  if (!own(req, 'query')) fail('invalid_query', '/query', 'query is missing');
  const query = req.query;
  if (typeof query !== 'string') fail('invalid_query', '/query', `query must be a string, got ${show(query)}`);
  if (!wellFormed(query)) fail('invalid_query', '/query', 'query contains a lone surrogate');
  if (trimWhiteSpace(query) === '') fail('invalid_query', '/query', 'query is empty after trimming whitespace');
  // 3  S6-ERR-03: "store_paths missing/empty"
  if (!own(req, 'store_paths')) fail('invalid_store_paths', '/store_paths', 'store_paths is missing');
  const sp = req.store_paths;
  if (!Array.isArray(sp)) fail('invalid_store_paths', '/store_paths', `store_paths must be an array, got ${show(sp)}`);
  if (sp.length === 0) fail('invalid_store_paths', '/store_paths', 'store_paths is empty');
  checkStringList(sp, 'invalid_store_paths', '/store_paths', 'store_paths', { nonEmpty: true });
  // 4..7
  const budget = validateBudget(req);
  const scoring = validateScoring(req);
  const trust = validateTrustFilter(req);
  let now = null;
  if (own(req, 'now_utc')) {
    // INT-36: validated whether or not recency is enabled.
    now = parseUtcTimestamp(req.now_utc);
    if (now === null) fail('invalid_now_utc', '/now_utc', `now_utc is not a valid UTC timestamp: ${show(req.now_utc)}`);
  }
  // 8  INT-42
  const unknown = firstUnknown(req, TOP_LEVEL_MEMBERS);
  if (unknown !== undefined) fail('invalid_request', pointer(unknown), `unknown request member ${show(unknown)}`);
  return { query, storePaths: sp, budget, scoring, trust, now };
}

module.exports = { validateRequest, isInt, TOP_LEVEL_MEMBERS, GROUP_MEMBERS, DEFAULTS };
