'use strict';
// Query normalization, query_hash, term derivation (SCORING steps 1-5, INT-08, INT-11).
const test = require('node:test');
const assert = require('node:assert/strict');
const { queryHash, deriveTerms, normalizeSuppliedTerms } = require('../src/query');
const { sha256 } = require('../support/fixtures');

test('query_hash = sha256 of the normalized query UTF-8 bytes', () => {
  // "  Hello\u00A0\u3000World \n" -> trim -> collapse "\u00A0\u3000" -> "hello world"
  assert.equal(queryHash('  Hello\u00a0\u3000World \n'), sha256('hello world'));
  // U+FEFF is not whitespace: kept inside the hashed string
  assert.equal(queryHash('\ufeffA'), sha256('\ufeffa'));
});

test('derived terms: split, drop length < 2 code points, unique in order', () => {
  // "The a THE é 😀 e\u0301 ab ab" -> normalized "the a the é 😀 é ab ab"
  //   lengths: the 3, a 1 (drop), the dup, é 1 (drop), 😀 1 (drop), e+U+0301 2 (keep), ab 2
  assert.deepEqual(deriveTerms('The a THE é 😀 e\u0301 ab ab'), ['the', 'e\u0301', 'ab']);
  assert.deepEqual(deriveTerms('x'), []);
  // U+200B is not whitespace: 'a\u200bb' is one 3-code-point term
  assert.deepEqual(deriveTerms('a\u200bb'), ['a\u200bb']);
});

test('supplied terms: normalized, empty removed, deduplicated; no split, no length filter (INT-08)', () => {
  assert.deepEqual(normalizeSuppliedTerms([' New\tYork ', 'x', 'new york', '   ', 'X']), ['new york', 'x']);
  assert.deepEqual(normalizeSuppliedTerms([]), []);
});
