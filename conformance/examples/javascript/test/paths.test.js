'use strict';
// Store path normalization (INT-12).
const test = require('node:test');
const assert = require('node:assert/strict');
const { normalizePath, normalizeStorePaths, resolveAgainstRoot } = require('../src/paths');

test('lexical POSIX normalization', () => {
  const cases = [
    ['stores/a.jsonl', 'stores/a.jsonl'],
    ['./stores//a.jsonl', 'stores/a.jsonl'],
    ['stores/./x/../a.jsonl', 'stores/a.jsonl'],
    ['stores/a.jsonl/', 'stores/a.jsonl'],
    ['//abs/a', '/abs/a'], // repeated '/' collapsed, also at the start (unlike posixpath)
    ['/../a', '/a'], // '..' at the root dropped
    ['../a/../../b', '../../b'], // leading '..' kept
    ['a/..', '.'],
    ['.', '.'],
    ['/', '/'],
    ['a\\b', 'a\\b'], // backslash is an ordinary character
  ];
  for (const [p, n] of cases) assert.equal(normalizePath(p), n, p);
});

test('deduplicated, sorted by code point, first request index kept', () => {
  const r = normalizeStorePaths(['b.jsonl', '\u{1F600}.jsonl', './b.jsonl', '\uE000.jsonl', 'a.jsonl']);
  assert.deepEqual(r, [
    { storePath: 'a.jsonl', requestIndex: 4 },
    { storePath: 'b.jsonl', requestIndex: 0 },
    { storePath: '\uE000.jsonl', requestIndex: 3 }, // U+E000 < U+1F600 by code point
    { storePath: '\u{1F600}.jsonl', requestIndex: 1 },
  ]);
});

test('resolution joins strings, never chdir', () => {
  assert.equal(resolveAgainstRoot('s/a', '/r'), '/r/s/a');
  assert.equal(resolveAgainstRoot('../a', '/r/'), '/r/../a');
  assert.equal(resolveAgainstRoot('/abs', '/r'), '/abs');
  assert.equal(resolveAgainstRoot('s/a', undefined), 's/a');
});
