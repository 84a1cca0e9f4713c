#!/usr/bin/env node
'use strict';
// A phase6-adapter/1 adapter around your own JavaScript memoryRead: copy this file and go.
//
// The harness (`phase6 certify --adapter "cmd:node adapter.js ./src/memory.js memoryRead"`)
// starts this script once and talks to it in newline-delimited JSON on stdin/stdout
// (specs/protocol.md): a `start` handshake, one `run` per vector, then `stop`. Your function
// takes the SPEC-006 request (a plain object) and returns the result envelope,
// `{package, receipt}` or `{error: {...}}`, or a Promise of it. Everything else is handled here:
//
// - each `run` executes with the working directory set to the vector's `root`, so relative
//   store paths resolve there (protocol section 2); the root is also passed as
//   `memoryRead(request, {root})` for code that resolves paths itself;
// - runs are answered one at a time, in order, even when your function is async;
// - an exception of yours (or a rejected Promise, or a result JSON cannot carry) becomes an
//   `internal_error` reply (the vector is `errored`) and the adapter stays alive;
// - stdout carries protocol lines only: console.log and console.info of your code go to
//   stderr, whose tail the harness keeps for its reports (do not write to process.stdout);
// - messages are read and written as UTF-8 whatever the locale.
//
// Only Node.js itself (>= 20) is used. Edit NAME, VERSION and HOMEPAGE below; IMPLEMENTATION
// (or the two command-line arguments: a module path, relative to the directory the harness
// was started in, and the name of its export) names your function. Check it quickly with
// `phase6 smoke --adapter "cmd:node adapter.js"` before a full `phase6 certify`.

const path = require('node:path');
const readline = require('node:readline');

const PROTOCOL = 'phase6-adapter/1';
const CONTRACT = 'phase6-v1';

// Your implementation: [module path, export name]; the command-line arguments override it.
const IMPLEMENTATION = ['./src/memory.js', 'memoryRead'];
// What the report calls your implementation.
const NAME = 'my-memory-read';
const VERSION = '0.1.0';
const HOMEPAGE = null;

function load(modulePath, exportName) {
  // Resolved against the directory the harness started us in, as a user would write it.
  const module = require(path.resolve(process.cwd(), modulePath));
  const fn = exportName === 'default' ? module.default ?? module : module[exportName];
  if (typeof fn !== 'function') {
    throw new Error(`adapter: ${modulePath} has no function export ${JSON.stringify(exportName)}`);
  }
  return fn;
}

function handshake() {
  const implementation = { name: NAME, version: VERSION, language: 'javascript', contract: CONTRACT };
  if (HOMEPAGE) implementation.homepage = HOMEPAGE;
  return { ok: true, protocol: PROTOCOL, implementation, capabilities: ['memory.read'] };
}

function encodeLine(obj) {
  // JSON.stringify escapes every control character and writes a lone surrogate as \udxxx; the
  // line separators U+2028/U+2029 and NEL are escaped as well, for readers splitting lines on
  // them (the harness splits on \n only).
  return JSON.stringify(obj).replace(/[\u0085\u2028\u2029]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) + '\n';
}

function internalError(seq, err) {
  return {
    seq,
    internal_error: {
      message: String(err && err.message ? `${err.name || 'Error'}: ${err.message}` : err),
      traceback: String(err && err.stack ? err.stack : err),
    },
  };
}

async function run(memoryRead, message) {
  const seq = message.seq;
  const here = process.cwd();
  try {
    process.chdir(message.root);
    const result = await memoryRead(message.request, { root: message.root });
    if (result === null || typeof result !== 'object') {
      throw new TypeError(`memoryRead returned ${result === null ? 'null' : typeof result}, not an object`);
    }
    return encodeLine({ seq, result }); // a result JSON cannot carry (a BigInt, a cycle) throws here
  } catch (err) {
    return encodeLine(internalError(seq, err));
  } finally {
    process.chdir(here);
  }
}

function write(line) {
  return new Promise((resolve) => process.stdout.write(line, resolve));
}

async function serve(memoryRead, input) {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) { // one message at a time: a run is answered before the next
    if (!line.trim()) continue;
    let message;
    try {
      message = JSON.parse(line);
    } catch (err) {
      process.stderr.write(`adapter: not JSON, ignored: ${err.message}\n`);
      continue;
    }
    const command = message && typeof message === 'object' ? message.cmd : undefined;
    if (command === 'start') {
      if (message.protocol !== PROTOCOL) {
        await write(encodeLine({ ok: false, error: `unsupported protocol ${JSON.stringify(message.protocol)}` }));
        return 1;
      }
      await write(encodeLine(handshake()));
    } else if (command === 'run') {
      await write(await run(memoryRead, message));
    } else if (command === 'stop') {
      await write(encodeLine({ ok: true }));
      return 0;
    } else {
      process.stderr.write(`adapter: unknown command ${JSON.stringify(command)}, ignored\n`);
    }
  }
  return 0;
}

async function main(argv) {
  // Keep stdout for the protocol: whatever the implementation logs goes to stderr.
  console.log = console.info = console.debug = console.error;
  const [modulePath, exportName] = argv.length >= 2 ? argv : IMPLEMENTATION;
  const memoryRead = load(modulePath, exportName);
  return serve(memoryRead, process.stdin);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; process.stdin.destroy(); },
    (err) => { process.stderr.write(`${err && err.stack ? err.stack : err}\n`); process.exit(2); },
  );
}

module.exports = { serve, handshake, encodeLine, internalError };
