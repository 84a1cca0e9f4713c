'use strict';
// Excerpt strip and UTF-8 cut (TRUNCATION, INT-31) and the estimator (TOKEN BUDGETING).
const test = require('node:test');
const assert = require('node:assert/strict');
const { buildExcerpt } = require('../src/excerpt');

test('strip White_Space only; empty -> "" with 0 tokens', () => {
  assert.deepEqual(buildExcerpt(' \u3000\n ', 10), { excerpt: '', excerpt_tokens: 0 });
  assert.deepEqual(buildExcerpt('', 10), { excerpt: '', excerpt_tokens: 0 });
  // U+FEFF is not White_Space: kept. "\ufeffab" = EF BB BF 61 62 = 5 bytes -> ceil(5/4) = 2
  assert.deepEqual(buildExcerpt('\ufeffab ', 10), { excerpt: '\ufeffab', excerpt_tokens: 2 });
  // internal whitespace untouched: "a \n b" = 5 bytes -> 2 tokens
  assert.deepEqual(buildExcerpt('  a \n b  ', 10), { excerpt: 'a \n b', excerpt_tokens: 2 });
});

test('cut at max_bytes = per_item * 4, moved back to a code-point boundary', () => {
  // per_item 1 -> 4 bytes.
  // "abcé" = 61 62 63 C3 A9 (5 bytes): cut at 4 falls on A9? no: byte[4] = A9 is a continuation,
  // so the cut moves back to 3 -> "abc" (3 bytes, 1 token)
  assert.deepEqual(buildExcerpt('abcé', 1), { excerpt: 'abc', excerpt_tokens: 1 });
  // "ab€x" = 61 62 E2 82 AC 78: byte[4] = AC continuation, byte[3] = 82 continuation, byte[2] = E2 lead -> cut 2 "ab"
  assert.deepEqual(buildExcerpt('ab€x', 1), { excerpt: 'ab', excerpt_tokens: 1 });
  // "😀😀" = F0 9F 98 80 F0 ...: byte[4] = F0 lead -> cut 4 keeps the first emoji, 4 bytes = 1 token
  assert.deepEqual(buildExcerpt('😀😀', 1), { excerpt: '😀', excerpt_tokens: 1 });
  // "a😀" = 61 F0 9F 98 80: byte[4] = 80 cont, [3] 98, [2] 9F, [1] F0 lead -> cut 1 "a"
  assert.deepEqual(buildExcerpt('a😀', 1), { excerpt: 'a', excerpt_tokens: 1 });
  // "é" at per_item... exact fit: "abcd" = 4 bytes, not cut
  assert.deepEqual(buildExcerpt('abcd', 1), { excerpt: 'abcd', excerpt_tokens: 1 });
});

test('the cut excerpt is not stripped again', () => {
  // "ab  cdef" -> per_item 1 -> 4 bytes "ab  " (ends in spaces, kept), 1 token
  assert.deepEqual(buildExcerpt('ab  cdef', 1), { excerpt: 'ab  ', excerpt_tokens: 1 });
});

test('tokens = ceil(bytes / 4)', () => {
  // 9 bytes -> 3 tokens; 8 -> 2; 1 -> 1
  assert.equal(buildExcerpt('123456789', 100).excerpt_tokens, 3);
  assert.equal(buildExcerpt('12345678', 100).excerpt_tokens, 2);
  assert.equal(buildExcerpt('1', 100).excerpt_tokens, 1);
});
