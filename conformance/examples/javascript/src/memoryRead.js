'use strict';
// memory.read (SPEC-006, contract phase6-v1): request -> validate -> read -> score -> filter ->
// select -> package -> receipt. Returns the result envelope (INT-44):
//   {package, receipt}   or   {error: {code, message, path, clause}}
// Non-SPEC-006 failures (bugs, I/O errors mid-read) are thrown, not wrapped: the adapter turns
// them into internal_error.
const { MemoryReadError } = require('./errors');
const { validateRequest } = require('./request');
const { normalizePath, normalizeStorePaths } = require('./paths');
const { openStores, readStores, closeAll, DEFAULT_CHUNK_SIZE } = require('./reader');
const { loadTrustSnapshot, makeDenyPredicate } = require('./trust');
const { queryHash, queryTerms } = require('./query');
const { scoreCandidate, compareCandidates } = require('./scoring');
const { select, REASONS } = require('./selection');
const { buildPackage } = require('./package');
const { buildReceipt } = require('./receipt');

/**
 * @param {unknown} request the MemoryControllerInput (a parsed JSON value)
 * @param {{root?: string, chunkSize?: number}} [options] root: directory that relative store and
 *   snapshot paths resolve against (default: the process working directory). Never chdir'ed.
 */
function memoryRead(request, options = {}) {
  const root = options.root;
  let opened = [];
  try {
    // Steps 1-8 of the error precedence: no filesystem access.
    const req = validateRequest(request);
    // INT-12: normalize, deduplicate, sort by code point.
    const stores = normalizeStorePaths(req.storePaths);
    // Step 9: every store checked (and opened read-only) before any is read (INT-13).
    opened = openStores(stores, root);
    // Step 10: the trust snapshot, whenever a path is given (INT-38).
    const trustEntries = req.trust.snapshotPath !== null ? loadTrustSnapshot(normalizePath(req.trust.snapshotPath), root) : null;

    // READ: every record line, in read order.
    const entries = readStores(opened, options.chunkSize || DEFAULT_CHUNK_SIZE);
    closeAll(opened);
    opened = [];

    // Invalid lines: dropped, never trust-checked (INT-39).
    for (const e of entries) if (!e.valid) e.reason = REASONS.INVALID;

    // TRUST: denied candidates are removed before selection (INT-39). No snapshot -> disabled.
    let candidates = entries.filter((e) => e.valid);
    if (trustEntries !== null) {
      const denied = makeDenyPredicate(trustEntries, req.trust.deny);
      for (const c of candidates) if (denied(c)) c.reason = REASONS.TRUST;
      candidates = candidates.filter((c) => c.reason === undefined);
    }

    // SCORE + ORDER.
    const terms = queryTerms(req.query, req.scoring.queryTerms);
    const scoringOpts = {
      tagOverlap: req.scoring.tagOverlap,
      recency: req.scoring.recency,
      nowNs: req.now !== null ? req.now.ns : null, // INT-37: never the system clock
      halfLifeDays: req.scoring.halfLifeDays,
    };
    for (const c of candidates) c.score = scoreCandidate(c, terms, scoringOpts);
    candidates.sort(compareCandidates);

    // SELECT.
    const { selected, used } = select(candidates, req.budget);

    // PACKAGE + RECEIPT.
    const pkg = buildPackage({ raw: req.query, query_hash: queryHash(req.query) }, req.budget, selected, entries, used);
    const receipt = buildReceipt(
      pkg,
      stores.map((s) => s.storePath),
    );
    return { package: pkg, receipt };
  } catch (e) {
    if (e instanceof MemoryReadError) return { error: e.toJSON() };
    throw e;
  } finally {
    closeAll(opened);
  }
}

module.exports = { memoryRead };
