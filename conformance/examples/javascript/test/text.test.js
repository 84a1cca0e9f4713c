'use strict';
// White_Space table (INT-05), lowercasing (INT-06), code-point length (INT-07), code-point order.
const test = require('node:test');
const assert = require('node:assert/strict');
const t = require('../src/text');
const { normalizeTags } = require('../src/records');

const WS = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];

test('exactly the 25 White_Space code points are whitespace', () => {
  assert.equal(WS.length, 25);
  for (let cp = 0; cp <= 0xffff; cp++) assert.equal(t.isWhiteSpace(cp), WS.includes(cp), cp.toString(16));
  for (const cp of WS) assert.equal(t.trimWhiteSpace(String.fromCodePoint(cp) + 'x'), 'x');
});

test('U+FEFF, U+200B and U+001C..U+001F are not whitespace (unlike JS \\s / Python split)', () => {
  for (const s of ['\ufeff', '\u200b', '\u001c', '\u001d', '\u001e', '\u001f', '\u180e']) {
    assert.equal(t.trimWhiteSpace(s), s);
    assert.equal(t.collapseWhiteSpace(`a${s}b`), `a${s}b`);
  }
  assert.equal('\ufeff'.trim(), ''); // the JS built-in would have stripped it
});

test('collapse: trim, then each run becomes one U+0020', () => {
  assert.equal(t.collapseWhiteSpace(' \t a \u00a0\u3000 b\r\n\u2028c \u0085'), 'a b c');
});

test('normalizeText lowercases with the full mapping (INT-06)', () => {
  assert.equal(t.normalizeText('  HeLLo\u2003WORLD '), 'hello world');
  assert.equal(t.normalizeText('İ'), 'i\u0307'); // U+0130 -> i + U+0307 (one-to-many)
  assert.equal(t.normalizeText('ΟΔΟΣ'), 'οδος'); // Final_Sigma: word-final Σ -> ς
  assert.equal(t.normalizeText('ß'), 'ß'); // lowercase, not case folding
});

test('codePointLength counts code points (INT-07)', () => {
  assert.equal(t.codePointLength('é'), 1); // U+00E9
  assert.equal(t.codePointLength('e\u0301'), 2); // e + combining acute
  assert.equal(t.codePointLength('😀'), 1); // 2 UTF-16 units, 4 UTF-8 bytes
  assert.equal('😀'.length, 2);
});

test('compareCodePoints orders U+E000..U+FFFF before supplementary characters', () => {
  const hi = '\u{1F600}'; // units D83D DE00
  const bmp = '\uffff';
  assert.equal(t.compareCodePoints(bmp, hi), -1); // U+FFFF < U+1F600
  assert.deepEqual([hi, bmp].sort(), [hi, bmp]); // default JS sort: UTF-16 order, the other way
  assert.deepEqual([hi, bmp, '\ue000', 'z', '\ud7ff'].sort(t.compareCodePoints), ['z', '\ud7ff', '\ue000', bmp, hi]);
  assert.equal(t.compareCodePoints('ab', 'abc'), -1);
  assert.equal(t.compareCodePoints('\u{10000}', '\u{10001}'), -1);
  // Agrees with UTF-8 byte order on a sample of mixed strings.
  const sample = ['a', '\u{10ffff}', '\ue000x', '\u{1F600}a', '\u{1F600}', 'é', '\u0800', '', '\uffff\u{10000}'];
  const byBytes = [...sample].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  assert.deepEqual([...sample].sort(t.compareCodePoints), byBytes);
});

test('tags: lowercase, unique, sorted by code point, not trimmed (INT-25)', () => {
  assert.deepEqual(normalizeTags(['B', 'b', ' a']), [' a', 'b']);
  assert.deepEqual(normalizeTags(['\u{1F600}', '\uFFFF', 'X', 'x']), ['x', '\uFFFF', '\u{1F600}']);
  assert.deepEqual(normalizeTags(['']), ['']); // an empty tag string is kept (INT-22)
});
