// The obvious JavaScript (Node.js) standard-library calls for the register entries whose answer
// depends on a runtime (specs/interpretations.toml `runtimes`). Each line printed is
// "ENTRY<TAB>PROBE<TAB>OBSERVED"; `python -m tools runtimes` runs this and groups the lines.
'use strict';
const crypto = require('crypto');
const readline = require('readline');
const { Readable } = require('stream');

const out = (entry, probe, observed) => console.log(`${entry}\t${probe}\t${observed}`);
const points = (s) => [...s].map((c) => 'U+' + c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')).join(' ');
const units = (s) => Array.from({ length: s.length }, (_, i) => 'U+' + s.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')).join(' ');
const parsed = (text) => { try { return 'ok ' + JSON.stringify(JSON.parse(text)); } catch (e) { return 'error'; } };
const spaces = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x180e,
  0x2000, 0x200a, 0x200b, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff];

// INT-05: String.prototype.trim() and split(/\s+/).
const chars = spaces.map((p) => String.fromCodePoint(p));
out('INT-05', 'String.prototype.trim() removes', points(chars.filter((c) => (c + 'a').trim() === 'a').join('')));
out('INT-05', "split(/\\s+/) splits at", points(chars.filter((c) => ('a' + c + 'b').split(/\s+/).length === 2).join('')));
// INT-06: toLowerCase().
out('INT-06', 'toLowerCase(U+0130 U+03A3)', points('\u0130\u03a3'.toLowerCase()));
out('INT-06', 'toLowerCase(AΣ)', points('A\u03a3'.toLowerCase()));
// INT-07: length.
out('INT-07', 'length of "é😀"', String('é😀'.length));
// P2-INT-15: URLSearchParams.get of a repeated name.
out('P2-INT-15', 'new URLSearchParams("q=a&q=b").get("q")', new URLSearchParams('q=a&q=b').get('q'));
// INT-33: Array.prototype.sort().
out('INT-33', 'sort([U+FF61, U+1F600])', points(['\uff61', '\u{1f600}'].sort().join('')));
// INT-15: JSON.parse.
out('INT-15', 'JSON.parse BOM', parsed('\ufeff{}'));
out('INT-15', 'JSON.parse NaN', parsed('{"a":NaN}'));
const lone = JSON.parse('{"a":"x\\ud800"}').a;
out('INT-15', 'JSON.parse lone surrogate (code units)', units(lone));
out('INT-15', 'JSON.stringify of it', JSON.stringify(lone));
out('INT-15', "Buffer.from(it, 'utf8')", Buffer.from(lone, 'utf8').toString('hex'));
out('INT-15', 'new TextEncoder().encode(it)', Buffer.from(new TextEncoder().encode(lone)).toString('hex'));
out('INT-15', 'sha256 of JSON.stringify(it)', crypto.createHash('sha256').update(JSON.stringify(lone)).digest('hex'));
out('INT-15', 'invalid UTF-8 via TextDecoder (replacement)', points(new TextDecoder().decode(Buffer.from([0x78, 0xff, 0x79]))));
// INT-16: duplicates.
out('INT-16', 'JSON.parse duplicate', parsed('{"a":1,"a":2}'));
// INT-17: numbers.
out('INT-17', 'JSON.parse 9007199254740993', parsed('[9007199254740993]'));
out('INT-17', 'JSON.parse 1e400', parsed('[1e400]'));
// INT-18: JSON.parse depth.
for (const depth of [64, 128, 1000, 1025, 10001, 100000]) {
  out('INT-18', `JSON.parse depth ${depth}`, parsed('['.repeat(depth) + ']'.repeat(depth)).split(' ')[0]);
}
// INT-20, INT-21: Date.parse, toISOString.
for (const s of ['2024-01-02T03:04:05Z', '2024-01-02t03:04:05z', '2024-01-02T03:04:05-00:00', '2024-01-02T03:04:60Z',
  '2024-02-30T03:04:05Z', '2024-01-02 03:04:05Z', '20240102T030405Z', '2024-01-02T24:00:00Z', '2024-01-02']) {
  const t = Date.parse(s);
  out('INT-20', `Date.parse(${JSON.stringify(s)})`, Number.isNaN(t) ? 'rejected' : 'accepted ' + new Date(t).toISOString());
}
out('INT-21', 'toISOString of 05.120Z', new Date('2024-01-02T03:04:05.120Z').toISOString());
// INT-01: JSON.stringify.
// Characters outside U+0020..U+007E that JSON.stringify writes raw are shown as <U+XXXX>.
const shown = (text) => text.replace(/[^\x20-\x7e]/g, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);
out('INT-01', 'JSON.stringify (raw characters as <U+XXXX>)', shown(JSON.stringify({ s: '<&>\u2028\u007f', n: [2.0, 1e21, 1e-7, -0, 0.1] })));
// INT-04: Math.pow(0.5, e).
const bits = (x) => { const b = Buffer.alloc(8); b.writeDoubleBE(x); return b.toString('hex').replace(/^0+/, ''); };
const pows = [];
for (let i = 1; i <= 400; i++) pows.push(bits(Math.pow(0.5, i / 64 + i / 1000)));
out('INT-04', 'pow(0.5, i/64 + i/1000), i = 1..400 (bits)', pows.join(' '));
// INT-41: Number.isInteger of parsed 10.0 and 1e1.
for (const text of ['10', '10.0', '1e1']) out('INT-41', `Number.isInteger(JSON.parse(${JSON.stringify(text)}))`, String(Number.isInteger(JSON.parse(text))));
// INT-14: readline lines (async, last).
const rl = readline.createInterface({ input: Readable.from([Buffer.from('a\r\nb\rc\n\nd\r')]), crlfDelay: Infinity });
const lines = [];
rl.on('line', (line) => lines.push(JSON.stringify(line)));
rl.on('close', () => out('INT-14', 'readline lines of "a\\r\\nb\\rc\\n\\nd\\r"', lines.join(' ')));
