'use strict';
// LEDGER RECEIPT (SUCCESS-ONLY, METADATA-ONLY), INT-43.
// S6-RCPT-01: "MUST include ONLY: kind = "memory.read"; data: query_hash, store_paths,
//              selected_count, package_hash" -- no excerpts, text, tags or refs.

/** @param storePaths the normalized, deduplicated, code-point-sorted store paths */
function buildReceipt(pkg, storePaths) {
  return {
    kind: 'memory.read',
    data: {
      query_hash: pkg.query.query_hash,
      store_paths: [...storePaths],
      selected_count: pkg.selection.selected.length,
      package_hash: pkg.package_hash,
    },
  };
}

module.exports = { buildReceipt };
