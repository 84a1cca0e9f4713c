#!/usr/bin/env node
'use strict';
// phase6-adapter/1 server (specs/protocol.md): newline-delimited JSON on stdin/stdout.
//
//   start -> handshake        run -> {seq, result} | {seq, internal_error}        stop -> {ok: true}, exit 0
//
// - stdout carries exactly one JSON object per line and nothing else; logs go to stderr.
// - Requests are answered in order: memoryRead is synchronous, so each line is fully handled
//   before the next one is looked at.
// - Relative paths resolve against `root` by string joining; the process never chdir()s.
// - Output lines additionally escape U+0085, U+2028 and U+2029 (valid JSON either way): a reader
//   that splits lines with a Unicode-aware splitter (Python's str.splitlines) would otherwise
//   cut an excerpt containing them. JSON.stringify already escapes every C0 control character.
const { memoryRead } = require('./src/memoryRead');

const PROTOCOL = 'phase6-adapter/1';
const IMPLEMENTATION = Object.freeze({
  name: 'adamos-phase6-js',
  version: '1.0.0',
  language: 'javascript',
  contract: 'phase6-v1',
});

function encodeLine(obj) {
  return JSON.stringify(obj).replace(/[\u0085\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) + '\n';
}

let exiting = false;

function send(obj, then) {
  // process.stdout.write hands the whole line to libuv at once (no userland buffering); the
  // callback fires once it has been written, which is when we may exit.
  process.stdout.write(encodeLine(obj), then);
}

function exitAfter(obj, code) {
  exiting = true;
  send(obj, () => process.exit(code));
}

function internalError(seq, err) {
  const reply = {};
  if (seq !== undefined) reply.seq = seq;
  reply.internal_error = {
    message: String(err && err.message ? err.message : err),
    traceback: String(err && err.stack ? err.stack : err),
  };
  return reply;
}

function handle(line) {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    process.stderr.write(`adapter: not JSON: ${line.slice(0, 200)}\n`);
    send(internalError(undefined, new Error(`command is not valid JSON: ${e.message}`)));
    return;
  }
  const cmd = msg && typeof msg === 'object' ? msg.cmd : undefined;
  switch (cmd) {
    case 'start':
      if (msg.protocol !== PROTOCOL) {
        exitAfter({ ok: false, error: `unsupported protocol ${JSON.stringify(msg.protocol)}; this adapter speaks ${PROTOCOL}` }, 1);
        return;
      }
      // Capability 'audit' (SPEC-003 assembly records, specs/audit.md) is not implemented:
      // it is declared absent, and the kit's audit section reports it "not declared".
      send({ ok: true, protocol: PROTOCOL, implementation: IMPLEMENTATION, capabilities: ['memory.read'] });
      return;
    case 'run': {
      const seq = msg.seq;
      let reply;
      try {
        if (typeof msg.root !== 'string' || msg.root === '') throw new Error('run: "root" must be a non-empty string');
        reply = { seq, result: memoryRead(msg.request, { root: msg.root }) };
        // Fail here (-> internal_error), not in the harness, if the result is not serializable.
        encodeLine(reply);
      } catch (e) {
        reply = internalError(seq, e);
      }
      send(reply);
      return;
    }
    case 'stop':
      exitAfter({ ok: true }, 0);
      return;
    default:
      process.stderr.write(`adapter: unknown command ${JSON.stringify(cmd)}\n`);
      send(internalError(msg && typeof msg === 'object' ? msg.seq : undefined, new Error(`unknown command ${JSON.stringify(cmd)}`)));
  }
}

// The harness closed our stdout (it stopped or killed us): nothing left to answer.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

// Byte-level line splitting on LF (a CR before it is tolerated); each line decoded as UTF-8.
let pending = [];
const decoder = new TextDecoder('utf-8');
process.stdin.on('data', (chunk) => {
  let start = 0;
  for (;;) {
    if (exiting) return;
    const lf = chunk.indexOf(0x0a, start);
    if (lf === -1) break;
    pending.push(chunk.subarray(start, lf));
    const bytes = Buffer.concat(pending);
    pending = [];
    start = lf + 1;
    let text = decoder.decode(bytes);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') continue;
    handle(text);
  }
  if (start < chunk.length) pending.push(chunk.subarray(start));
});
// "Closing stdin also means stop."
process.stdin.on('end', () => {
  if (exiting) return;
  const rest = Buffer.concat(pending);
  pending = [];
  if (rest.length > 0 && decoder.decode(rest).trim() !== '') handle(decoder.decode(rest));
  if (!exiting) {
    exiting = true;
    process.stdout.write('', () => process.exit(0));
  }
});
