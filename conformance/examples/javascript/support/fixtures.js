'use strict';
// Test fixtures: temporary vector roots laid out like vectors-format.md `input.files`.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');

/**
 * makeRoot({'stores/a.jsonl': {lines: [...], eol, final_eol} | {text} | {base64} | {directory: true}})
 * Returns the absolute root directory. Lines that are objects are JSON.stringify'd.
 */
const created = [];
process.on('exit', () => {
  for (const dir of created) fs.rmSync(dir, { recursive: true, force: true });
});

function makeRoot(files = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'p6js-'));
  created.push(root);
  for (const [rel, spec] of Object.entries(files)) {
    const abs = path.join(root, rel);
    if (spec.directory) {
      fs.mkdirSync(abs, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    let bytes;
    if (spec.lines) {
      const eol = spec.eol ?? '\n';
      const parts = spec.lines.map((l) =>
        typeof l === 'string' ? Buffer.from(l, 'utf8') : l.base64 !== undefined ? Buffer.from(l.base64, 'base64') : Buffer.from(JSON.stringify(l), 'utf8'),
      );
      const chunks = [];
      parts.forEach((p, i) => {
        chunks.push(p);
        if (i < parts.length - 1 || spec.final_eol !== false) chunks.push(Buffer.from(eol));
      });
      bytes = Buffer.concat(chunks);
    } else if (spec.text !== undefined) bytes = Buffer.from(spec.text, 'utf8');
    else if (spec.base64 !== undefined) bytes = Buffer.from(spec.base64, 'base64');
    else if (spec.json !== undefined) bytes = Buffer.from(JSON.stringify(spec.json), 'utf8');
    fs.writeFileSync(abs, bytes);
  }
  return root;
}

const sha256 = (s) => crypto.createHash('sha256').update(s).digest('hex');

module.exports = { makeRoot, sha256 };
