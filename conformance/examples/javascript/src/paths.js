'use strict';
// Store / snapshot path normalization (INT-12) and resolution against the adapter root (INT-45).
//
// S6-READ-04/05: "store_paths MUST be normalized and sorted lexicographically before read"
// INT-12: lexical POSIX normalization, no filesystem access:
//   1) collapse repeated '/' (so '//a' -> '/a'; unlike Python's posixpath.normpath, which keeps
//      exactly two leading slashes),
//   2) remove '.' segments,
//   3) '..' removes the preceding segment where there is one; leading '..' of a relative path
//      is kept; '..' at the root of an absolute path is dropped,
//   4) remove a trailing '/'.
//   '\\' is an ordinary character. Symlinks are not resolved.
// Then deduplicate and sort by code point.
const { compareCodePoints } = require('./text');

function normalizePath(p) {
  const absolute = p.startsWith('/');
  const out = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue; // steps 1, 2, 4
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop(); // step 3
      else if (!absolute) out.push('..'); // leading '..' of a relative path is kept
      // else: '..' at the root of an absolute path is dropped
      continue;
    }
    out.push(seg);
  }
  const joined = out.join('/');
  if (absolute) return '/' + joined;
  // Not pinned by INT-12: a relative path that normalizes to nothing ('.', './', 'a/..').
  // We follow posixpath.normpath and return '.' (the directory itself).
  return joined === '' ? '.' : joined;
}

/**
 * Normalize, deduplicate and sort the request's store_paths.
 * Returns [{storePath, requestIndex}] in code-point order, where requestIndex is the index of
 * the first request element that normalizes to storePath (errors.md row 9).
 */
function normalizeStorePaths(paths) {
  const first = new Map();
  paths.forEach((p, i) => {
    const n = normalizePath(p);
    if (!first.has(n)) first.set(n, i);
  });
  return [...first.keys()]
    .sort(compareCodePoints)
    .map((storePath) => ({ storePath, requestIndex: first.get(storePath) }));
}

/**
 * The filesystem path to open for a normalized path, "as if the working directory were root"
 * (protocol.md). We join by string concatenation instead of path.join/path.resolve: those
 * normalize '..' lexically, whereas chdir(root) + open('../x') lets the kernel resolve '..'
 * physically (after following a symlinked root). No process.chdir.
 */
function resolveAgainstRoot(normalized, root) {
  if (normalized.startsWith('/') || root === undefined || root === null || root === '') return normalized;
  return root.endsWith('/') ? root + normalized : root + '/' + normalized;
}

module.exports = { normalizePath, normalizeStorePaths, resolveAgainstRoot };
