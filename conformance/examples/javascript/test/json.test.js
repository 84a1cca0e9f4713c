'use strict';
// Strict JSON rules for store lines and snapshots (INT-15..INT-18).
const test = require('node:test');
const assert = require('node:assert/strict');
const { parseStrictJson } = require('../src/json');

const ok = (s) => parseStrictJson(typeof s === 'string' ? Buffer.from(s, 'utf8') : s).ok;

test('RFC 8259 only', () => {
  assert.ok(ok(' {"a":1} '));
  for (const s of ['{"a":NaN}', '{"a":Infinity}', "{'a':1}", '{"a":1,}', '{"a":1}//', '{"a":1} x', '{"a":01}', '\u000b{}', '{"a":"\u0001"}', '']) {
    assert.equal(ok(s), false, JSON.stringify(s));
  }
});

test('a UTF-8 BOM is not stripped and makes the text invalid', () => {
  assert.equal(ok(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])), false);
});

test('invalid UTF-8: overlong, encoded surrogate, F5..FF, truncated', () => {
  const wrap = (bytes) => Buffer.concat([Buffer.from('{"a":"'), Buffer.from(bytes), Buffer.from('"}')]);
  for (const b of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xff], [0xe2, 0x82]]) assert.equal(ok(wrap(b)), false, String(b));
  assert.ok(ok(wrap([0xe2, 0x82, 0xac]))); // U+20AC
  assert.ok(ok(wrap([0xef, 0xbf, 0xbe]))); // U+FFFE, a noncharacter, is valid UTF-8
});

test('escaped lone surrogates anywhere, also in names and in overwritten duplicates', () => {
  assert.equal(ok('{"a":"\\ud800"}'), false);
  assert.equal(ok('{"a":"\\udc00x"}'), false);
  assert.equal(ok('{"\\ud800":1}'), false);
  assert.equal(ok('{"a":"\\ud800","a":"fine"}'), false); // JSON.parse alone would hide it
  assert.equal(ok('{"a":"\\ud83d\\u00e9"}'), false); // high surrogate followed by a non-surrogate
  assert.ok(ok('{"a":"\\ud83d\\ude00"}')); // a proper pair
  assert.ok(ok('{"a":"\\\\ud800"}')); // an escaped backslash followed by "ud800" text
});

test('numbers that round to infinity are invalid (INT-17)', () => {
  assert.equal(ok('{"a":1e400}'), false);
  assert.equal(ok('{"a":-1e400,"a":1}'), false);
  assert.equal(ok('{"a":' + '9'.repeat(400) + '}'), false);
  assert.ok(ok('{"a":1e308,"b":-0,"c":1e-400}')); // 1e-400 underflows to 0: allowed
  assert.ok(ok('{"a":9007199254740993}'));
});

test('nesting depth: 64 ok, 65 invalid, the outer object is depth 1 (INT-18)', () => {
  const nest = (d) => '{"a":' + '['.repeat(d - 1) + ']'.repeat(d - 1) + '}';
  assert.ok(ok(nest(64)));
  assert.equal(ok(nest(65)), false);
  assert.equal(ok('{"a":' + '['.repeat(64) + ']'.repeat(64) + ',"a":1}'), false); // overwritten, still in the line
  assert.ok(ok('{"a":"' + '['.repeat(100) + '"}')); // brackets inside strings do not count
});

test('duplicate names: last wins (INT-16)', () => {
  assert.deepEqual(parseStrictJson(Buffer.from('{"a":1,"a":2}')).value, { a: 2 });
});
