'use strict';
// Request validation: codes, JSON Pointer paths and precedence (INT-40..INT-42, errors.md).
const test = require('node:test');
const assert = require('node:assert/strict');
const { memoryRead } = require('../src/memoryRead');
const { makeRoot } = require('../support/fixtures');

const root = makeRoot({ 's.jsonl': { lines: [{ memory_id: 'm', text: 't' }] }, dir: { directory: true } });
const base = () => ({ query: 'q', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 10 } });
const err = (req) => {
  const r = memoryRead(req, { root });
  assert.ok(r.error, `expected an error for ${JSON.stringify(req)}, got a package`);
  assert.deepEqual(Object.keys(r), ['error']);
  assert.deepEqual(Object.keys(r.error).sort(), ['clause', 'code', 'message', 'path']);
  assert.match(r.error.clause, /^S6-ERR-\d\d$/);
  return [r.error.code, r.error.path];
};
const withReq = (patch) => Object.assign(base(), patch);

test('the valid base request succeeds', () => {
  assert.ok(memoryRead(base(), { root }).package);
});

test('errors.md rows 1-8: code and path', () => {
  const cases = [
    [[], 'invalid_request', ''],
    [null, 'invalid_request', ''],
    ['q', 'invalid_request', ''],
    [{ store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 1 } }, 'invalid_query', '/query'],
    [withReq({ query: 5 }), 'invalid_query', '/query'],
    [withReq({ query: null }), 'invalid_query', '/query'],
    [withReq({ query: ' \u3000\u2028\t' }), 'invalid_query', '/query'],
    [withReq({ query: '\ud800' }), 'invalid_query', '/query'], // our reading: lone surrogate
    [{ query: 'q', budget: { max_excerpt_tokens: 1 } }, 'invalid_store_paths', '/store_paths'],
    [withReq({ store_paths: 's.jsonl' }), 'invalid_store_paths', '/store_paths'],
    [withReq({ store_paths: [] }), 'invalid_store_paths', '/store_paths'],
    [withReq({ store_paths: ['s.jsonl', 3, ''] }), 'invalid_store_paths', '/store_paths/1'],
    [withReq({ store_paths: ['s.jsonl', ''] }), 'invalid_store_paths', '/store_paths/1'],
    [{ query: 'q', store_paths: ['s.jsonl'] }, 'invalid_budget', '/budget'],
    [withReq({ budget: null }), 'invalid_budget', '/budget'],
    [withReq({ budget: [] }), 'invalid_budget', '/budget'],
    [withReq({ budget: {} }), 'invalid_budget', '/budget/max_excerpt_tokens'],
    [withReq({ budget: { max_excerpt_tokens: 0 } }), 'invalid_budget', '/budget/max_excerpt_tokens'],
    [withReq({ budget: { max_excerpt_tokens: -0 } }), 'invalid_budget', '/budget/max_excerpt_tokens'],
    [withReq({ budget: { max_excerpt_tokens: 1.5 } }), 'invalid_budget', '/budget/max_excerpt_tokens'],
    [withReq({ budget: { max_excerpt_tokens: '10' } }), 'invalid_budget', '/budget/max_excerpt_tokens'],
    [withReq({ budget: { max_excerpt_tokens: true } }), 'invalid_budget', '/budget/max_excerpt_tokens'],
    [withReq({ budget: { max_excerpt_tokens: 2 ** 53 } }), 'invalid_budget', '/budget/max_excerpt_tokens'],
    [withReq({ budget: { max_excerpt_tokens: 1, per_item_max_excerpt_tokens: 0 } }), 'invalid_budget', '/budget/per_item_max_excerpt_tokens'],
    [withReq({ budget: { max_excerpt_tokens: 1, per_item_max_excerpt_tokens: null } }), 'invalid_budget', '/budget/per_item_max_excerpt_tokens'],
    [withReq({ budget: { max_excerpt_tokens: 1, max_items: 0 } }), 'invalid_budget', '/budget/max_items'],
    [withReq({ budget: { max_excerpt_tokens: 1, max_item: 3 } }), 'invalid_budget', '/budget/max_item'],
    // defined members before unknown ones; unknown ones in code-point order
    [withReq({ budget: { zz: 1, max_excerpt_tokens: 0 } }), 'invalid_budget', '/budget/max_excerpt_tokens'],
    [withReq({ budget: { max_excerpt_tokens: 1, '\u{1F600}': 1, '\uffff': 1 } }), 'invalid_budget', '/budget/\uffff'],
    [withReq({ budget: { max_excerpt_tokens: 1, 'a/b~c': 1 } }), 'invalid_budget', '/budget/a~1b~0c'],
    [withReq({ scoring: null }), 'invalid_scoring', '/scoring'],
    [withReq({ scoring: { enable_recency_weight: 1 } }), 'invalid_scoring', '/scoring/enable_recency_weight'],
    [withReq({ scoring: { recency_half_life_days: 0 } }), 'invalid_scoring', '/scoring/recency_half_life_days'],
    [withReq({ scoring: { enable_tag_overlap: 'yes' } }), 'invalid_scoring', '/scoring/enable_tag_overlap'],
    [withReq({ scoring: { query_terms: 'a' } }), 'invalid_scoring', '/scoring/query_terms'],
    [withReq({ scoring: { query_terms: ['a', null] } }), 'invalid_scoring', '/scoring/query_terms/1'],
    [withReq({ scoring: { weights: {} } }), 'invalid_scoring', '/scoring/weights'],
    [withReq({ scoring: { enable_tag_overlap: 0, recency_half_life_days: 0 } }), 'invalid_scoring', '/scoring/recency_half_life_days'],
    [withReq({ trust_filter: 'x' }), 'invalid_trust_filter', '/trust_filter'],
    [withReq({ trust_filter: { deny_classifications: 'malicious' } }), 'invalid_trust_filter', '/trust_filter/deny_classifications'],
    [withReq({ trust_filter: { deny_classifications: ['a', 1] } }), 'invalid_trust_filter', '/trust_filter/deny_classifications/1'],
    [withReq({ trust_filter: { trust_snapshot_path: '' } }), 'invalid_trust_filter', '/trust_filter/trust_snapshot_path'],
    [withReq({ trust_filter: { trust_snapshot_path: null } }), 'invalid_trust_filter', '/trust_filter/trust_snapshot_path'],
    [withReq({ trust_filter: { other: 1 } }), 'invalid_trust_filter', '/trust_filter/other'],
    [withReq({ now_utc: null }), 'invalid_now_utc', '/now_utc'],
    [withReq({ now_utc: '2024-01-01T00:00:00+01:00' }), 'invalid_now_utc', '/now_utc'],
    [withReq({ now_utc: 1700000000 }), 'invalid_now_utc', '/now_utc'],
    [withReq({ querry: 'x' }), 'invalid_request', '/querry'],
    [withReq({ b: 1, a: 1 }), 'invalid_request', '/a'],
    [withReq({ '': 1 }), 'invalid_request', '/'],
  ];
  for (const [req, code, p] of cases) assert.deepEqual(err(req), [code, p], JSON.stringify(req));
});

test('precedence: the first failing group wins', () => {
  // query before store_paths before budget ... before unknown members
  assert.deepEqual(err({ zz: 1, budget: 0, store_paths: [], query: '' }), ['invalid_query', '/query']);
  assert.deepEqual(err({ zz: 1, budget: 0, store_paths: [], query: 'q' }), ['invalid_store_paths', '/store_paths']);
  assert.deepEqual(err({ zz: 1, now_utc: 'x', scoring: 1, budget: 0, store_paths: ['nope'], query: 'q' }), ['invalid_budget', '/budget']);
  assert.deepEqual(err({ zz: 1, now_utc: 'x', trust_filter: 1, scoring: 1, ...base() }), ['invalid_scoring', '/scoring']);
  assert.deepEqual(err({ zz: 1, now_utc: 'x', trust_filter: 1, ...base() }), ['invalid_trust_filter', '/trust_filter']);
  assert.deepEqual(err({ zz: 1, now_utc: 'x', ...base() }), ['invalid_now_utc', '/now_utc']);
  // request checks (1-8) come before any filesystem check (9-10)
  assert.deepEqual(err({ zz: 1, ...base(), store_paths: ['missing.jsonl'] }), ['invalid_request', '/zz']);
});

test('ints: 10.0 and 1e1 are 10 (INT-41); values are echoed as numbers', () => {
  const r = memoryRead(JSON.parse('{"query":"q","store_paths":["s.jsonl"],"budget":{"max_excerpt_tokens":1e1,"max_items":2.0}}'), { root });
  assert.equal(r.package.budget.max_excerpt_tokens, 10);
  assert.equal(r.package.budget.max_items, 2);
});

test('now_utc and half-life are validated even when recency is disabled (INT-36)', () => {
  assert.deepEqual(err(withReq({ scoring: { enable_recency_weight: false, recency_half_life_days: -1 } })), ['invalid_scoring', '/scoring/recency_half_life_days']);
  assert.deepEqual(err(withReq({ now_utc: 'soon' })), ['invalid_now_utc', '/now_utc']);
});

test('the same invalid input gives the same message in every root (S6-ERR-07)', () => {
  const other = makeRoot({});
  const req = withReq({ store_paths: ['missing.jsonl'] });
  assert.deepEqual(memoryRead(req, { root }), memoryRead(req, { root: other }));
});
