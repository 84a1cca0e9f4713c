'use strict';
// TRUST FILTERING (DETECTION-ONLY), snapshot format phase6-trust/1 (INT-38, INT-39).
//
// S6-TRUST-03: "a trust snapshot exists AND explicitly marks a memory_id (or record_hash) with a
//               deny classification in trust_filter.deny_classifications."
// S6-TRUST-02: "No inference, no heuristics" -> exact, case-sensitive string equality only.
const fs = require('node:fs');
const { MemoryReadError, pointer, show } = require('./errors');
const { resolveAgainstRoot } = require('./paths');
const { openRegularFile } = require('./reader');
const { parseStrictJson, isPlainObject } = require('./json');

const TRUST_FORMAT = 'phase6-trust/1';
const PATH = pointer('trust_filter', 'trust_snapshot_path');
const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

function readAll(fd) {
  const parts = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    const n = fs.readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    parts.push(Buffer.from(buf.subarray(0, n)));
    total += n;
  }
  return Buffer.concat(parts, total);
}

/** Validate a parsed snapshot; returns the entries or null when not a phase6-trust/1 document. */
function validateSnapshot(doc) {
  // Top level: an object with format === "phase6-trust/1" and entries: array. Unknown top-level
  // members are accepted (INT-38 only says so for entries; see README findings).
  if (!isPlainObject(doc) || doc.format !== TRUST_FORMAT || !Array.isArray(doc.entries)) return null;
  for (const e of doc.entries) {
    if (!isPlainObject(e)) return null;
    if (!own(e, 'classification') || typeof e.classification !== 'string') return null;
    const hasId = own(e, 'memory_id');
    const hasHash = own(e, 'record_hash');
    if (!hasId && !hasHash) return null; // "Each entry names at least one of memory_id and record_hash"
    if (hasId && typeof e.memory_id !== 'string') return null; // null is not absent
    if (hasHash && typeof e.record_hash !== 'string') return null;
  }
  return doc.entries;
}

/**
 * errors.md rows 11-12: load and validate the snapshot at the normalized path (read whenever the
 * path is given, even with an empty deny list). Returns the entries.
 */
function loadTrustSnapshot(normalizedPath, root) {
  const r = openRegularFile(resolveAgainstRoot(normalizedPath, root));
  if (r.kind === 'missing') {
    throw new MemoryReadError('trust_snapshot_not_found', PATH, `trust snapshot ${show(normalizedPath)} does not exist`);
  }
  if (r.kind !== 'ok') {
    throw new MemoryReadError('invalid_trust_snapshot', PATH, `trust snapshot ${show(normalizedPath)} is not a readable regular file`);
  }
  let bytes;
  try {
    bytes = readAll(r.fd);
  } finally {
    fs.closeSync(r.fd);
  }
  // Same JSON rules as store lines (INT-15..INT-18): strict UTF-8, no BOM, RFC 8259, no lone
  // surrogates, finite numbers, depth <= 64. The whole file is one JSON text (JSON whitespace,
  // including newlines, may surround it).
  const parsed = parseStrictJson(bytes);
  const entries = parsed.ok ? validateSnapshot(parsed.value) : null;
  if (entries === null) {
    const why = parsed.ok ? `is not a valid ${TRUST_FORMAT} document` : `is not valid JSON (${parsed.reason})`;
    throw new MemoryReadError('invalid_trust_snapshot', PATH, `trust snapshot ${show(normalizedPath)} ${why}`);
  }
  return entries;
}

/**
 * INT-39: build the deny predicate. An entry denies when its classification is (exactly) in
 * deny_classifications; each key it names matches on its own, so an entry naming memory_id and
 * record_hash denies a candidate equal on either ("explicitly marks a memory_id (or
 * record_hash)").
 */
function makeDenyPredicate(entries, denyClassifications) {
  const deny = new Set(denyClassifications);
  const byId = new Set();
  const byHash = new Set();
  for (const e of entries) {
    if (!deny.has(e.classification)) continue;
    if (own(e, 'memory_id')) byId.add(e.memory_id);
    if (own(e, 'record_hash')) byHash.add(e.record_hash);
  }
  return (c) => byId.has(c.memory_id) || byHash.has(c.record_hash);
}

module.exports = { loadTrustSnapshot, makeDenyPredicate, validateSnapshot, TRUST_FORMAT };
