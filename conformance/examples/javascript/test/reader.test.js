'use strict';
// Line splitting (INT-14): LF only, CR tolerance, blank lines, chunk-size independence.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { lines, isBlank } = require('../src/reader');
const { makeRoot } = require('../support/fixtures');

function splitFile(bytes, chunkSize) {
  const root = makeRoot({ f: { base64: Buffer.from(bytes).toString('base64') } });
  const fd = fs.openSync(path.join(root, 'f'), 'r');
  try {
    return [...lines(fd, chunkSize)].map((b) => b.toString('latin1'));
  } finally {
    fs.closeSync(fd);
  }
}

test('LF splitting with CR tolerance is independent of the chunk size', () => {
  const input = Buffer.from('a\r\nb\n\n  \t\r\nc\r\r\nd\re\nlast\r', 'latin1');
  // lines: "a" (CR removed), "b", "", "  \t" (one CR removed), "c\r" (only ONE CR removed),
  //        "d\re" (a CR not before LF stays), "last" (CR at the very end removed)
  const expected = ['a', 'b', '', '  \t', 'c\r', 'd\re', 'last'];
  for (const size of [1, 2, 3, 4, 5, 7, 64 * 1024]) assert.deepEqual(splitFile(input, size), expected, `chunk ${size}`);
});

test('a trailing LF creates no extra line; a final line without LF is a line', () => {
  assert.deepEqual(splitFile(Buffer.from('x\n'), 4), ['x']);
  assert.deepEqual(splitFile(Buffer.from('x\ny'), 4), ['x', 'y']);
  assert.deepEqual(splitFile(Buffer.from(''), 4), []);
  assert.deepEqual(splitFile(Buffer.from('\n'), 4), ['']);
});

test('blank = empty or only 0x20 0x09 0x0D', () => {
  assert.ok(isBlank(Buffer.from('')));
  assert.ok(isBlank(Buffer.from(' \t\r ')));
  assert.equal(isBlank(Buffer.from('\u000b')), false); // VT is not JSON whitespace
  assert.equal(isBlank(Buffer.from('\u00a0')), false); // NBSP: not blank -> invalid line
  assert.equal(isBlank(Buffer.from([0xef, 0xbb, 0xbf])), false); // a lone BOM is a line
});
