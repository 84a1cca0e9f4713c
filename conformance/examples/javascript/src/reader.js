'use strict';
// READER CONTRACT: store checks, streaming line splitting, candidates in read order.
//
// S6-READ-02: "Read strategy: streaming line-by-line, no buffering dependent on OS non-determinism"
//   -> the store is read with fs.readSync in fixed-size chunks and split on bytes; the result
//      does not depend on the chunk size (tested with chunk sizes 1..7 and 64 KiB).
// S6-READ-05/06: stores in normalized code-point order; S6-READ-07: lines in file order.
const fs = require('node:fs');
const { MemoryReadError, pointer, show } = require('./errors');
const { resolveAgainstRoot } = require('./paths');
const { parseRecordLine } = require('./records');

const DEFAULT_CHUNK_SIZE = 64 * 1024;

/**
 * Classify a filesystem path for INT-13 / INT-38. Returns {kind: 'missing' | 'not_regular' |
 * 'unopenable' | 'ok', fd?}. On 'ok' the file is open read-only (fd) and the caller closes it.
 * ENOENT and ENOTDIR (a path component is a regular file) mean "does not exist"; an embedded NUL
 * cannot name a file on POSIX and is treated as "does not exist" too. Every other stat failure
 * (EACCES on a parent, ELOOP, ENAMETOOLONG) is "cannot be opened for reading".
 */
function openRegularFile(fsPath) {
  if (fsPath.includes('\u0000')) return { kind: 'missing' };
  let st;
  try {
    st = fs.statSync(fsPath); // follows symlinks; a dangling symlink is ENOENT
  } catch (e) {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unopenable' };
  }
  // Checked BEFORE open: opening a FIFO for reading would block until a writer appears.
  if (!st.isFile()) return { kind: 'not_regular' };
  try {
    return { kind: 'ok', fd: fs.openSync(fsPath, fs.constants.O_RDONLY) };
  } catch (e) {
    if (e.code === 'ENOENT') return { kind: 'missing' }; // removed between stat and open
    return { kind: 'unopenable' };
  }
}

/**
 * INT-13 / errors.md rows 9-10: check every normalized store, in sorted order, before reading
 * any; the first failure wins. Returns [{storePath, fd}]; on error closes what it opened.
 */
function openStores(stores, root) {
  const opened = [];
  try {
    for (const { storePath, requestIndex } of stores) {
      const r = openRegularFile(resolveAgainstRoot(storePath, root));
      const where = pointer('store_paths', requestIndex);
      if (r.kind === 'missing') {
        throw new MemoryReadError('store_not_found', where, `store ${show(storePath)} does not exist`);
      }
      if (r.kind !== 'ok') {
        throw new MemoryReadError('store_not_readable', where, `store ${show(storePath)} is not a readable regular file`);
      }
      opened.push({ storePath, fd: r.fd });
    }
    return opened;
  } catch (e) {
    closeAll(opened);
    throw e;
  }
}

function closeAll(opened) {
  for (const o of opened) {
    try {
      fs.closeSync(o.fd);
    } catch {
      /* already closed */
    }
  }
}

/**
 * INT-14: split a byte stream on LF (0x0A) only. A final line without LF is a line; a trailing LF
 * creates no extra line. One CR (0x0D) right before the LF (or at the very end) is removed.
 * Yields Buffers (terminator removed), including blank ones (the caller skips those).
 */
function* lines(fd, chunkSize = DEFAULT_CHUNK_SIZE) {
  const chunk = Buffer.allocUnsafe(chunkSize);
  let pending = []; // parts of the current line from earlier chunks
  let pendingLength = 0;
  const finish = (parts, total) => {
    let line = parts.length === 1 ? parts[0] : Buffer.concat(parts, total);
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    return line;
  };
  for (;;) {
    const n = fs.readSync(fd, chunk, 0, chunkSize, null);
    if (n === 0) break;
    const data = Buffer.from(chunk.subarray(0, n)); // copy: `chunk` is reused
    let start = 0;
    for (;;) {
      const lf = data.indexOf(0x0a, start);
      if (lf === -1) break;
      const part = data.subarray(start, lf);
      yield finish(pending.length ? [...pending, part] : [part], pendingLength + part.length);
      pending = [];
      pendingLength = 0;
      start = lf + 1;
    }
    if (start < n) {
      pending.push(data.subarray(start));
      pendingLength += n - start;
    }
  }
  if (pendingLength > 0) yield finish(pending, pendingLength);
}

/** INT-14: empty, or only JSON whitespace bytes 0x20 0x09 0x0D -> skipped silently. */
function isBlank(line) {
  for (const b of line) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

/**
 * Read all opened stores. Returns the record lines in read order:
 *   {readIndex, store_path, valid: true, memory_id, text, tags, refs, ts, record_hash}
 *   {readIndex, store_path, valid: false, memory_id, record_hash}
 */
function readStores(opened, chunkSize = DEFAULT_CHUNK_SIZE) {
  const entries = [];
  for (const { storePath, fd } of opened) {
    for (const line of lines(fd, chunkSize)) {
      if (isBlank(line)) continue;
      const rec = parseRecordLine(line);
      rec.store_path = storePath;
      rec.readIndex = entries.length;
      entries.push(rec);
    }
  }
  return entries;
}

module.exports = { openStores, openRegularFile, closeAll, lines, isBlank, readStores, DEFAULT_CHUNK_SIZE };
