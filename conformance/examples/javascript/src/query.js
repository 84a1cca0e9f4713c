'use strict';
// Query normalization, query_hash and query terms (HASHING, SCORING; INT-07, INT-08, INT-11).
const { normalizeText, codePointLength } = require('./text');
const { sha256Hex } = require('./canonical');

/** S6-HASH-05..08: "SHA-256 hex of the normalized query: trim, collapse internal whitespace to
 *  single spaces, lowercased." Hashed over the UTF-8 bytes (INT-11). */
function queryHash(query) {
  return sha256Hex(Buffer.from(normalizeText(query), 'utf8'));
}

/** Unique, first occurrence wins, original order. */
function uniqueInOrder(items) {
  return [...new Set(items)];
}

/**
 * SCORING "Query term derivation (if scoring.query_terms absent)":
 *   1) normalize query: trim, lower, collapse whitespace
 *   2) split on whitespace           (after 1) the only separator left is U+0020)
 *   3) drop empty terms
 *   4) keep terms length >= 2         (code points, INT-07)
 *   5) preserve order, unique (first occurrence wins)
 */
function deriveTerms(query) {
  const step1 = normalizeText(query);
  const step2 = step1.split(' ');
  const step3 = step2.filter((t) => t !== '');
  const step4 = step3.filter((t) => codePointLength(t) >= 2);
  return uniqueInOrder(step4);
}

/**
 * INT-08: supplied terms are each normalized like the query (trim, collapse, lowercase); empty
 * results removed; duplicates removed (first wins). No split, no length filter.
 */
function normalizeSuppliedTerms(terms) {
  return uniqueInOrder(terms.map(normalizeText).filter((t) => t !== ''));
}

function queryTerms(query, suppliedTerms) {
  return suppliedTerms === undefined ? deriveTerms(query) : normalizeSuppliedTerms(suppliedTerms);
}

module.exports = { queryHash, deriveTerms, normalizeSuppliedTerms, queryTerms };
