'use strict';
// Record schema (INT-22), record_hash preimage (INT-02), invalid-line entries (INT-19).
const test = require('node:test');
const assert = require('node:assert/strict');
const { parseRecordLine } = require('../src/records');
const { sha256 } = require('../support/fixtures');

const parse = (s) => parseRecordLine(typeof s === 'string' ? Buffer.from(s, 'utf8') : s);

test('record_hash covers {memory_id, refs, tags, text, ts_utc} in JCS form (INT-02)', () => {
  const line = '{"text":" Hi ","zz":1,"memory_id":"m1","tags":["B","a","b"],"ts_utc":"2024-01-02T03:04:05.120+00:00"}';
  const r = parse(line);
  assert.equal(r.valid, true);
  // Preimage written by hand: keys sorted, refs [] when absent, tags normalized, text as read
  // (not stripped), ts_utc normalized, unknown member zz excluded, no store_path.
  const preimage = '{"memory_id":"m1","refs":[],"tags":["a","b"],"text":" Hi ","ts_utc":"2024-01-02T03:04:05.12Z"}';
  assert.equal(r.record_hash, sha256(preimage));
});

test('ts_utc key omitted when the timestamp string is invalid (INT-20)', () => {
  const r = parse('{"memory_id":"m1","text":"t","ts_utc":"yesterday"}');
  assert.equal(r.valid, true);
  assert.equal(r.ts, null);
  assert.equal(r.record_hash, sha256('{"memory_id":"m1","refs":[],"tags":[],"text":"t"}'));
});

test('refs are hashed with JCS numbers and sorted nested keys', () => {
  const r = parse('{"memory_id":"m","text":"","refs":[{"v":1.0,"k":"run_id","n":-0,"e":1e21}]}');
  assert.equal(r.record_hash, sha256('{"memory_id":"m","refs":[{"e":1e+21,"k":"run_id","n":0,"v":1}],"tags":[],"text":""}'));
});

test('the two-key spelling of a duplicate hashes like the one-key spelling (INT-16)', () => {
  assert.equal(parse('{"memory_id":"x","text":"a","text":"b"}').record_hash, parse('{"memory_id":"x","text":"b"}').record_hash);
});

test('schema violations are invalid_record_schema', () => {
  for (const s of [
    '{"text":"t"}', // memory_id missing
    '{"memory_id":null,"text":"t"}', // null is not absent
    '{"memory_id":1,"text":"t"}',
    '{"memory_id":"m"}', // text missing
    '{"memory_id":"m","text":null}',
    '{"memory_id":"m","text":"t","tags":"a"}',
    '{"memory_id":"m","text":"t","tags":["a",1]}',
    '{"memory_id":"m","text":"t","tags":null}',
    '{"memory_id":"m","text":"t","refs":["run-1"]}', // SPEC-005 string refs (INT-24)
    '{"memory_id":"m","text":"t","refs":[[]]}',
    '{"memory_id":"m","text":"t","refs":[null]}',
    '{"memory_id":"m","text":"t","refs":{}}',
    '{"memory_id":"m","text":"t","ts_utc":20240101}', // ts_utc not a string
    '{"memory_id":"m","text":"t","ts_utc":null}',
    '["memory_id","m"]',
  ]) {
    assert.equal(parse(s).valid, false, s);
  }
  // valid: empty text, empty memory_id (INT-22: "" is a string), empty tag, empty refs list,
  // refs objects with any members, unknown fields
  for (const s of ['{"memory_id":"m","text":""}', '{"memory_id":"","text":"t"}', '{"memory_id":"m","text":"t","tags":[""],"refs":[],"created_at_utc":"x"}', '{"memory_id":"m","text":"t","refs":[{}]}']) {
    assert.equal(parse(s).valid, true, s);
  }
});

test('invalid lines: memory_id from a parsable object, else ""; record_hash of raw bytes (INT-19)', () => {
  const a = '{"memory_id":"m7","text":5}';
  assert.deepEqual(parse(a), { valid: false, memory_id: 'm7', record_hash: sha256(a) });
  const b = '{"memory_id":"m1","memory_id":"m2"}'; // last wins, still a string; text missing
  assert.equal(parse(b).memory_id, 'm2');
  assert.equal(parse('{"memory_id":3,"text":"t"}').memory_id, '');
  assert.equal(parse('not json').memory_id, '');
  assert.equal(parse('["m"]').memory_id, '');
  // JSON-level violations (surrogate, depth, overflow) -> "" (our reading, see README)
  assert.equal(parse('{"memory_id":"m1","text":"\\ud800"}').memory_id, '');
  assert.equal(parse('{"memory_id":"m1","text":"t","x":1e400}').memory_id, '');
  const bad = Buffer.from([0x7b, 0xff, 0x7d]); // {0xFF}
  assert.deepEqual(parse(bad), { valid: false, memory_id: '', record_hash: sha256(bad) });
});
