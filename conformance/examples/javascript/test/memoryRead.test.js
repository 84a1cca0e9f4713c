'use strict';
// End-to-end memory.read cases, worked by hand.
const test = require('node:test');
const assert = require('node:assert/strict');
const { memoryRead } = require('../src/memoryRead');
const { canonicalize } = require('../src/canonical');
const { makeRoot, sha256 } = require('../support/fixtures');

const run = (req, files) => memoryRead(req, { root: makeRoot(files) });
const ids = (items) => items.map((i) => i.memory_id);
const reasons = (pkg) => pkg.selection.dropped.map((d) => `${d.memory_id}:${d.reason}`);

function checkHashes(result) {
  // INT-03: package_hash over the package minus package_hash; INT-43: receipt mirrors it.
  const { package_hash, ...rest } = result.package;
  assert.equal(package_hash, sha256(canonicalize(rest)));
  assert.deepEqual(Object.keys(result.receipt).sort(), ['data', 'kind']);
  assert.deepEqual(Object.keys(result.receipt.data).sort(), ['package_hash', 'query_hash', 'selected_count', 'store_paths']);
  assert.equal(result.receipt.data.package_hash, package_hash);
  assert.equal(result.receipt.data.query_hash, result.package.query.query_hash);
  assert.equal(result.receipt.data.selected_count, result.package.selection.selected.length);
}

test('empty store: the whole package written out by hand and hashed', () => {
  // Store of blank lines only (INT-14: skipped silently).
  const r = run({ query: ' A ', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 1 } }, { 's.jsonl': { text: '\n  \r\n\t\n' } });
  // query_hash = sha256("a"); per_item defaults to max (1); max_items defaults to 50.
  const qh = sha256('a');
  assert.equal(qh, 'ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb');
  const canonical =
    '{"budget":{"max_excerpt_tokens":1,"max_items":50,"per_item_max_excerpt_tokens":1,"remaining_excerpt_tokens":1,"used_excerpt_tokens":0},' +
    '"controller_version":"phase6-v1",' +
    `"query":{"query_hash":"${qh}","raw":" A "},` +
    '"selection":{"dropped":[],"selected":[]}}';
  assert.deepEqual(r, {
    package: {
      query: { raw: ' A ', query_hash: qh },
      budget: { max_excerpt_tokens: 1, used_excerpt_tokens: 0, remaining_excerpt_tokens: 1, per_item_max_excerpt_tokens: 1, max_items: 50 },
      selection: { selected: [], dropped: [] },
      package_hash: sha256(canonical),
      controller_version: 'phase6-v1',
    },
    receipt: { kind: 'memory.read', data: { query_hash: qh, store_paths: ['s.jsonl'], selected_count: 0, package_hash: sha256(canonical) } },
  });
});

test('scoring: substring terms, tag bonus, whitespace-collapsed matching', () => {
  const r = run(
    { query: 'alpha  Beta x', store_paths: ['stores/a.jsonl'], budget: { max_excerpt_tokens: 100 } },
    {
      'stores/a.jsonl': {
        lines: [
          { memory_id: 'a1', text: 'Alpha beta', tags: ['Beta'] },
          { memory_id: 'a2', text: 'gamma', ts_utc: '2024-01-01T00:00:00Z' },
          { memory_id: 'a3', text: 'alphabet soup', ts_utc: '2024-01-02T00:00:00Z' },
          '',
          { memory_id: 'a4', text: 'BETA\u2003ALPHA' },
        ],
      },
    },
  );
  // terms: "alpha beta x" -> [alpha, beta] ("x" is 1 code point)
  // a1: "alpha beta" has alpha, beta -> base 2; tags [beta] -> overlap 1 -> 2 + 0.5 = 2.5
  // a4: "beta alpha" (U+2003 collapsed) -> base 2, no tags -> 2
  // a3: "alphabet soup" has "alpha", not "beta" ("...abet s...") -> 1
  // a2: 0
  const sel = r.package.selection.selected;
  assert.deepEqual(ids(sel), ['a1', 'a4', 'a3', 'a2']);
  assert.deepEqual(sel.map((s) => s.score), [2.5, 2, 1, 0]);
  // excerpt tokens: "Alpha beta" 10 B -> 3; "BETA\u2003ALPHA" 4+3+5 = 12 B -> 3; "alphabet soup" 13 B -> 4; "gamma" 5 B -> 2
  assert.deepEqual(sel.map((s) => s.excerpt_tokens), [3, 3, 4, 2]);
  assert.equal(r.package.budget.used_excerpt_tokens, 12);
  assert.equal(r.package.budget.remaining_excerpt_tokens, 88);
  assert.equal(sel[1].excerpt, 'BETA\u2003ALPHA'); // original bytes, not normalized
  checkHashes(r);
});

test('tag overlap disabled; supplied query terms replace derivation', () => {
  const files = { 's.jsonl': { lines: [{ memory_id: 'm', text: 'New  York city, Xmas', tags: ['new york', 'X'] }] } };
  const r1 = run({ query: 'ignored', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 9 }, scoring: { query_terms: ['NEW york', 'x', 'x '] } }, files);
  // terms [new york, x]: text "new york city, xmas" contains both -> 2; tags {new york, x} -> overlap 2 -> +1 = 3
  assert.equal(r1.package.selection.selected[0].score, 3);
  const r2 = run({ query: 'ignored', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 9 }, scoring: { query_terms: ['NEW york', 'x'], enable_tag_overlap: false } }, files);
  assert.equal(r2.package.selection.selected[0].score, 2); // base 2, no tag bonus
  const r3 = run({ query: 'new york', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 9 }, scoring: { query_terms: [] } }, files);
  assert.equal(r3.package.selection.selected[0].score, 0); // empty list = no terms (INT-08)
});

test('tie-breaks: ts desc by instant, missing last, store_path and memory_id by code point', () => {
  const files = {
    'st/\u{1F600}.jsonl': { lines: [{ memory_id: 'e1', text: '' }] },
    'st/\uE000.jsonl': {
      lines: [
        { memory_id: 'm\u{1F600}', text: '' },
        { memory_id: 'm\uE000', text: '' },
        { memory_id: 'z1', text: '', ts_utc: '2024-01-01T00:00:00Z' },
        { memory_id: 'z2', text: '', ts_utc: '2024-01-01T00:00:00.5+00:00' },
        { memory_id: 'z3', text: '', ts_utc: 'not a time' },
      ],
    },
  };
  const r = run({ query: 'qq', store_paths: ['st/\u{1F600}.jsonl', 'st/\uE000.jsonl'], budget: { max_excerpt_tokens: 1 } }, files);
  // all scores 0. With ts: z2 (.5 s later) before z1. Without ts (incl. invalid z3):
  //   store st/\uE000 (U+E000) before st/\u{1F600} by code point; within it memory_id
  //   m\uE000 < m\u{1F600} < z3.
  assert.deepEqual(ids(r.package.selection.selected), ['z2', 'z1', 'm\uE000', 'm\u{1F600}', 'z3', 'e1']);
  assert.deepEqual(r.receipt.data.store_paths, ['st/\uE000.jsonl', 'st/\u{1F600}.jsonl']);
  checkHashes(r);
});

test('record_hash is the last tie-break (same store, same memory_id, same score)', () => {
  const r = run({ query: 'qq', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 10 } }, {
    's.jsonl': { lines: [{ memory_id: 'd', text: 'one' }, { memory_id: 'd', text: 'two' }, { memory_id: 'd', text: 'one' }] },
  });
  const h1 = sha256('{"memory_id":"d","refs":[],"tags":[],"text":"one"}');
  const h2 = sha256('{"memory_id":"d","refs":[],"tags":[],"text":"two"}');
  const expected = h1 < h2 ? [h1, h1, h2] : [h2, h1, h1];
  assert.deepEqual(r.package.selection.selected.map((s) => s.record_hash), expected.sort());
});

test('budget overflow STOPS selection; later items are budget_exhausted even if they fit (INT-26)', () => {
  const r = run({ query: 'aa', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 5, per_item_max_excerpt_tokens: 10 } }, {
    's.jsonl': {
      lines: [
        { memory_id: 'c3', text: '' }, // score 0, 0 tokens
        { memory_id: 'c1', text: 'aa aa aa aa' }, // score 1, 11 B -> 3 tokens
        { memory_id: 'c2', text: 'aa bbbbbbbbbbbbb' }, // score 1, 16 B -> 4 tokens
      ],
    },
  });
  // rank: c1, c2 (score 1; no ts; same store; memory_id c1 < c2), c3 (score 0)
  // c1: 0 + 3 <= 5 select (used 3); c2: 3 + 4 = 7 > 5 -> stop; c3 (0 tokens) also budget_exhausted
  assert.deepEqual(ids(r.package.selection.selected), ['c1']);
  assert.deepEqual(reasons(r.package), ['c3:budget_exhausted', 'c2:budget_exhausted']); // read order
  assert.equal(r.package.budget.per_item_max_excerpt_tokens, 5); // min(10, 5)
  assert.equal(r.package.budget.remaining_excerpt_tokens, 2);
  checkHashes(r);
});

test('max_items reached comes before the budget check (INT-27)', () => {
  const r = run({ query: 'aa', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 3, max_items: 1 } }, {
    's.jsonl': { lines: [{ memory_id: 'b', text: 'aa' }, { memory_id: 'a', text: 'aa' }, { memory_id: 'c', text: 'x'.repeat(40) }] },
  });
  // rank a, b (score 1), c (score 0). a selected (1 token); b: count 1 == max_items -> max_items_reached;
  // c would also overflow (per-item 3 -> 12 B -> 3 tokens; 1 + 3 > 3) but gets max_items_reached.
  assert.deepEqual(ids(r.package.selection.selected), ['a']);
  assert.deepEqual(reasons(r.package), ['b:max_items_reached', 'c:max_items_reached']);
});

test('per-item truncation counts against the budget with the truncated size', () => {
  const r = run({ query: 'zz', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 3, per_item_max_excerpt_tokens: 1 } }, {
    's.jsonl': { lines: [{ memory_id: 'a', text: '  abcé and more  ' }, { memory_id: 'b', text: '€€' }, { memory_id: 'c', text: 'xyzw' }] },
  });
  // per item 1 token = 4 bytes. a: "abcé and more" -> "abc" (cut inside é) 1 token;
  // b: "€€" = 6 B -> cut at 4 inside the 2nd € -> "€" 3 B, 1 token; c: "xyzw" 4 B, 1 token. used 3.
  assert.deepEqual(r.package.selection.selected.map((s) => [s.memory_id, s.excerpt, s.excerpt_tokens]), [['a', 'abc', 1], ['b', '€', 1], ['c', 'xyzw', 1]]);
  assert.equal(r.package.budget.remaining_excerpt_tokens, 0);
});

test('dropped: every non-selected line once, in read order across sorted stores (INT-28)', () => {
  const files = {
    'b.jsonl': { lines: ['{"memory_id":"b1","text":1}', { memory_id: 'b2', text: 'x'.repeat(8) }] },
    'a.jsonl': { lines: [{ memory_id: 'a1', text: 'hit hit' }, 'garbage', { memory_id: 'a2', text: 'x'.repeat(8) }], eol: '\r\n' },
  };
  const r = run({ query: 'hit', store_paths: ['./b.jsonl', 'a.jsonl', 'b.jsonl'], budget: { max_excerpt_tokens: 2 } }, files);
  // read order: a1, garbage, a2, b1(invalid), b2. Rank: a1 (1), then a2, b2 (0) by store_path.
  // a1 "hit hit" 7 B -> 2 tokens, used 2; a2 8 B -> 2 tokens -> 4 > 2 -> stop.
  assert.deepEqual(ids(r.package.selection.selected), ['a1']);
  assert.deepEqual(
    r.package.selection.dropped.map((d) => [d.store_path, d.memory_id, d.reason]),
    [['a.jsonl', '', 'invalid_record_schema'], ['a.jsonl', 'a2', 'budget_exhausted'], ['b.jsonl', 'b1', 'invalid_record_schema'], ['b.jsonl', 'b2', 'budget_exhausted']],
  );
  assert.equal(r.package.selection.dropped[0].record_hash, sha256('garbage')); // CR of CRLF removed
  assert.deepEqual(r.receipt.data.store_paths, ['a.jsonl', 'b.jsonl']);
  checkHashes(r);
});

test('recency: exact halvings, future clamp, no ts, no now_utc', () => {
  const files = {
    's.jsonl': {
      lines: [
        { memory_id: 'r1', text: '', ts_utc: '2024-01-31T00:00:00Z' }, // 30 d -> 0.5^1 = 0.5
        { memory_id: 'r2', text: '', ts_utc: '2024-03-02T00:00:00Z' }, // future -> clamp 1
        { memory_id: 'r3', text: '' }, // no ts -> 0
        { memory_id: 'r4', text: '', ts_utc: '2023-12-02T00:00:00Z' }, // 30 + 60 = 90 d -> 0.125
        { memory_id: 'r5', text: 'qq', ts_utc: '2024-02-12T23:28:35.050Z' }, // 1 + 0.6748347238301541
      ],
    },
  };
  const req = { query: 'qq', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 10 }, now_utc: '2024-03-01T00:00:00Z', scoring: { enable_recency_weight: true } };
  const r = run(req, files);
  const scores = Object.fromEntries(r.package.selection.selected.map((s) => [s.memory_id, s.score]));
  // r5: base 1 + tag 0 + recency: 1 470 684 950 ms = 17.0218... d; /30 = 0.5673938850308642;
  //     correctly rounded 0.5**e = 0.6748347238301541 (V8 Math.pow says ...542) -> 1.6748347238301541
  assert.deepEqual(scores, { r5: 1.6748347238301541, r2: 1, r1: 0.5, r4: 0.125, r3: 0 });
  assert.deepEqual(ids(r.package.selection.selected), ['r5', 'r2', 'r1', 'r4', 'r3']);
  // now_utc absent -> recency disabled; enable flag absent -> disabled (now_utc changes nothing)
  const { now_utc, ...withoutNow } = req;
  const noNow = run(withoutNow, files);
  assert.ok(noNow.package.selection.selected.every((s) => s.score === (s.memory_id === 'r5' ? 1 : 0)));
  const { scoring, ...noFlag } = req;
  assert.deepEqual(run(noFlag, files).package.selection.selected.map((s) => s.score), [1, 0, 0, 0, 0]);
});

test('trust: id-only, hash-only, both-keys entries; case-sensitive classes; denied cost nothing (INT-39)', () => {
  const t2 = sha256('{"memory_id":"t2","refs":[],"tags":[],"text":"aaaa"}');
  const files = {
    's.jsonl': {
      lines: [
        { memory_id: 't1', text: 'aaaa' },
        { memory_id: 't2', text: 'aaaa' },
        { memory_id: 't3', text: 'aaaa' },
        { memory_id: 't4', text: 'aaaa' },
        '{"memory_id":"t1","text":null}',
        { memory_id: 't5', text: 'aaaa' },
      ],
    },
    'trust.json': {
      json: {
        format: 'phase6-trust/1',
        entries: [
          { memory_id: 't1', classification: 'malicious', note: 'ignored member' },
          { record_hash: t2, classification: 'malicious' },
          { memory_id: 'nobody', record_hash: '00', classification: 'malicious' }, // both keys, neither matches -> no
          { memory_id: 't4', classification: 'suspicious' },
          { memory_id: 't5', classification: 'Malicious' }, // case-sensitive -> no
        ],
      },
    },
  };
  // budget 3 tokens = exactly the 3 surviving 1-token items (t3, t4, t5): t1/t2 cost nothing
  const req = { query: 'zz', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 3 }, trust_filter: { trust_snapshot_path: './trust.json' } };
  const r = run(req, files);
  assert.deepEqual(ids(r.package.selection.selected), ['t3', 't4', 't5']);
  assert.deepEqual(reasons(r.package), ['t1:trust_denied', 't2:trust_denied', 't1:invalid_record_schema']);
  // deny only "suspicious": t4 denied; t1, t2, t3 take the 3 tokens; t5 -> budget_exhausted
  const r2 = run({ ...req, trust_filter: { trust_snapshot_path: 'trust.json', deny_classifications: ['suspicious'] } }, files);
  assert.deepEqual(ids(r2.package.selection.selected), ['t1', 't2', 't3']);
  assert.deepEqual(reasons(r2.package), ['t4:trust_denied', 't1:invalid_record_schema', 't5:budget_exhausted']);
  // empty deny list: nothing denied (the snapshot is still read and validated);
  // t1..t3 selected, t4 and t5 budget_exhausted, listed in read order around the invalid line
  const r3 = run({ ...req, trust_filter: { trust_snapshot_path: 'trust.json', deny_classifications: [] } }, files);
  assert.deepEqual(ids(r3.package.selection.selected), ['t1', 't2', 't3']);
  assert.deepEqual(reasons(r3.package), ['t4:budget_exhausted', 't1:invalid_record_schema', 't5:budget_exhausted']);
  // no snapshot: trust filtering disabled even though t1 would be denied
  const { trust_filter, ...noTrust } = req;
  assert.ok(run(noTrust, files).package.selection.dropped.every((d) => d.reason !== 'trust_denied'));
});

test('trust: an entry naming both keys denies a candidate equal on either (INT-39); memory_id "" is a value (INT-22, INT-38)', () => {
  const hashOf = (id, text) => sha256(`{"memory_id":"${id}","refs":[],"tags":[],"text":"${text}"}`);
  const files = {
    's.jsonl': {
      lines: [
        { memory_id: 'a', text: 'note' }, // id matches entry 1 (its hash does not)
        { memory_id: 'b', text: 'note' }, // hash matches entry 1 (its id does not)
        { memory_id: 'c', text: 'note' }, // neither
        { memory_id: '', text: 'note' }, // empty memory_id: a valid record, named by entry 2
      ],
    },
    'trust.json': {
      json: {
        format: 'phase6-trust/1',
        entries: [
          { memory_id: 'a', record_hash: hashOf('b', 'note'), classification: 'malicious' },
          { memory_id: '', classification: 'malicious' },
        ],
      },
    },
  };
  const r = run({ query: 'note', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 100 }, trust_filter: { trust_snapshot_path: 'trust.json' } }, files);
  assert.deepEqual(ids(r.package.selection.selected), ['c']);
  assert.deepEqual(reasons(r.package), ['a:trust_denied', 'b:trust_denied', ':trust_denied']);
});

test('store and snapshot errors: sorted order, first request index, existence vs readability', () => {
  const files = { 'ok.jsonl': { lines: [] }, 'a/dir': { directory: true }, 'bad.json': { text: '\ufeff{"format":"phase6-trust/1","entries":[]}' } };
  const code = (req) => {
    const r = run({ query: 'q', budget: { max_excerpt_tokens: 1 }, ...req }, files);
    return r.error ? [r.error.code, r.error.path] : 'ok';
  };
  // sorted: "a/dir" < "z/missing" -> the directory is checked first
  assert.deepEqual(code({ store_paths: ['z/missing.jsonl', 'a/dir'] }), ['store_not_readable', '/store_paths/1']);
  assert.deepEqual(code({ store_paths: ['ok.jsonl', './x.jsonl', 'x.jsonl'] }), ['store_not_found', '/store_paths/1']);
  assert.deepEqual(code({ store_paths: ['ok.jsonl/x'] }), ['store_not_found', '/store_paths/0']); // ENOTDIR
  // stores before the snapshot
  assert.deepEqual(code({ store_paths: ['nope'], trust_filter: { trust_snapshot_path: 'nope.json' } }), ['store_not_found', '/store_paths/0']);
  const tp = '/trust_filter/trust_snapshot_path';
  assert.deepEqual(code({ store_paths: ['ok.jsonl'], trust_filter: { trust_snapshot_path: 'nope.json' } }), ['trust_snapshot_not_found', tp]);
  assert.deepEqual(code({ store_paths: ['ok.jsonl'], trust_filter: { trust_snapshot_path: 'a/dir' } }), ['invalid_trust_snapshot', tp]);
  assert.deepEqual(code({ store_paths: ['ok.jsonl'], trust_filter: { trust_snapshot_path: 'bad.json', deny_classifications: [] } }), ['invalid_trust_snapshot', tp]);
});

test('invalid trust snapshots', () => {
  const docs = [
    { format: 'phase6-trust/2', entries: [] },
    { format: 'phase6-trust/1' },
    { format: 'phase6-trust/1', entries: {} },
    { format: 'phase6-trust/1', entries: [{ classification: 'malicious' }] }, // names neither key
    { format: 'phase6-trust/1', entries: [{ memory_id: 'm' }] }, // no classification
    { format: 'phase6-trust/1', entries: [{ memory_id: null, record_hash: 'h', classification: 'malicious' }] },
    { format: 'phase6-trust/1', entries: [{ memory_id: 'm', classification: 1 }] },
    { format: 'phase6-trust/1', entries: ['m'] },
    [],
  ];
  for (const doc of docs) {
    const r = run({ query: 'q', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 1 }, trust_filter: { trust_snapshot_path: 't.json' } }, { 's.jsonl': { lines: [] }, 't.json': { json: doc } });
    assert.equal(r.error?.code, 'invalid_trust_snapshot', JSON.stringify(doc));
  }
  const okDoc = run({ query: 'q', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 1 }, trust_filter: { trust_snapshot_path: 't.json' } }, { 's.jsonl': { lines: [] }, 't.json': { text: '\n{"format":"phase6-trust/1","entries":[],"extra":1}\r\n' } });
  assert.ok(okDoc.package);
});

test('identical inputs give identical results; store order in the request does not matter', () => {
  const files = { 'x.jsonl': { lines: [{ memory_id: 'x', text: 'k k' }] }, 'y.jsonl': { lines: [{ memory_id: 'y', text: 'k' }] } };
  const root = makeRoot(files);
  const a = memoryRead({ query: 'k', store_paths: ['x.jsonl', 'y.jsonl'], budget: { max_excerpt_tokens: 9 } }, { root });
  const b = memoryRead({ query: 'k', store_paths: ['y.jsonl', './x.jsonl'], budget: { max_excerpt_tokens: 9 } }, { root });
  assert.deepEqual(a, b);
  const explicitDefaults = memoryRead(
    { query: 'k', store_paths: ['x.jsonl', 'y.jsonl'], budget: { max_excerpt_tokens: 9, per_item_max_excerpt_tokens: 9, max_items: 50 }, scoring: { enable_recency_weight: false, recency_half_life_days: 30, enable_tag_overlap: true }, trust_filter: { deny_classifications: ['malicious'] } },
    { root },
  );
  assert.deepEqual(a, explicitDefaults); // S6-DET-01
});
