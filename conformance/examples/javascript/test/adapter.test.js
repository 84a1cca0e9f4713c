'use strict';
// phase6-adapter/1 (specs/protocol.md) over a real subprocess, and the CLI's exit codes.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { makeRoot } = require('../support/fixtures');

const ADAPTER = path.join(__dirname, '..', 'adapter.js');
const CLI = path.join(__dirname, '..', 'cli.js');

/** Send lines, close stdin, collect stdout lines and the exit code. */
function converse(lines, { closeStdin = true } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ADAPTER], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, replies: out.split('\n').filter(Boolean).map((l) => JSON.parse(l)), raw: out, stderr: err }));
    for (const l of lines) child.stdin.write(typeof l === 'string' ? l + '\n' : JSON.stringify(l) + '\n');
    if (closeStdin) child.stdin.end();
  });
}

const START = { cmd: 'start', protocol: 'phase6-adapter/1' };

test('handshake, run with root, seq echo, stop', async () => {
  const root = makeRoot({ 'stores/s.jsonl': { lines: [{ memory_id: 'm1', text: 'hello\u2028world' }] } });
  const req = { query: 'hello', store_paths: ['stores/s.jsonl'], budget: { max_excerpt_tokens: 8 } };
  const { code, replies, raw } = await converse([START, { cmd: 'run', seq: 17, root, request: req }, { cmd: 'run', seq: 18, root, request: { query: '' } }, { cmd: 'stop' }], { closeStdin: false });
  assert.equal(code, 0);
  assert.deepEqual(replies[0], {
    ok: true,
    protocol: 'phase6-adapter/1',
    implementation: { name: 'adamos-phase6-js', version: '1.0.0', language: 'javascript', contract: 'phase6-v1' },
    capabilities: ['memory.read'],
  });
  assert.equal(replies[1].seq, 17);
  assert.equal(replies[1].result.package.selection.selected[0].store_path, 'stores/s.jsonl'); // relative, not joined
  assert.equal(replies[1].result.package.selection.selected[0].excerpt, 'hello\u2028world');
  assert.ok(!raw.includes('\u2028')); // escaped on the wire
  assert.deepEqual(replies[2].seq, 18);
  assert.equal(replies[2].result.error.code, 'invalid_query');
  assert.deepEqual(replies[3], { ok: true });
  assert.equal(replies.length, 4);
});

test('internal errors are reported with seq and the adapter keeps running', async () => {
  const root = makeRoot({ 's.jsonl': { lines: [] } });
  const { code, replies } = await converse([
    START,
    { cmd: 'run', seq: 1, request: { query: 'q' } }, // no root -> internal_error
    'this is not json',
    { cmd: 'run', seq: 2, root, request: { query: 'q', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 1 } } },
  ]);
  assert.equal(code, 0); // closing stdin means stop
  assert.equal(replies[1].seq, 1);
  assert.ok(replies[1].internal_error.message && replies[1].internal_error.traceback);
  assert.ok(replies[2].internal_error);
  assert.equal(replies[3].seq, 2);
  assert.ok(replies[3].result.package);
});

test('unsupported protocol: ok false and exit', async () => {
  const { code, replies } = await converse([{ cmd: 'start', protocol: 'phase6-adapter/9' }], { closeStdin: false });
  assert.equal(replies[0].ok, false);
  assert.match(replies[0].error, /unsupported protocol/);
  assert.notEqual(code, null);
});

test('CLI: exit 0 with a package, 1 with a SPEC-006 error', () => {
  const root = makeRoot({ 's.jsonl': { lines: [{ memory_id: 'm', text: 't' }] } });
  const ok = spawnSync(process.execPath, [CLI, '--root', root, '-'], { input: JSON.stringify({ query: 't', store_paths: ['s.jsonl'], budget: { max_excerpt_tokens: 1 } }) });
  assert.equal(ok.status, 0);
  assert.equal(JSON.parse(ok.stdout).receipt.data.selected_count, 1);
  const bad = spawnSync(process.execPath, [CLI, '--root', root], { input: JSON.stringify({ query: 't', store_paths: ['nope'], budget: { max_excerpt_tokens: 1 } }) });
  assert.equal(bad.status, 1);
  assert.equal(JSON.parse(bad.stdout).error.code, 'store_not_found');
});
