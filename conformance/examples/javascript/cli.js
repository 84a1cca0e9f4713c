#!/usr/bin/env node
'use strict';
// memory.read from the command line.
//   node cli.js [--root DIR] [--pretty] [request.json | -]
// Reads the request (a JSON object) from the file or stdin, prints the result envelope as JSON.
// Exit status: 0 success, 1 SPEC-006 error (the {error} envelope is printed), 2 usage / the
// request file is not JSON.
const fs = require('node:fs');
const { memoryRead } = require('./src/memoryRead');

function main(argv) {
  let root;
  let pretty = false;
  let file = '-';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root') root = argv[++i];
    else if (a === '--pretty') pretty = true;
    else if (a === '-h' || a === '--help') {
      process.stdout.write('usage: node cli.js [--root DIR] [--pretty] [request.json | -]\n');
      return 0;
    } else file = a;
  }
  let text;
  try {
    text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    process.stderr.write(`cli: cannot read ${file}: ${e.message}\n`);
    return 2;
  }
  let request;
  try {
    request = JSON.parse(text);
  } catch (e) {
    process.stderr.write(`cli: request is not JSON: ${e.message}\n`);
    return 2;
  }
  const result = memoryRead(request, root === undefined ? {} : { root });
  process.stdout.write(JSON.stringify(result, null, pretty ? 2 : undefined) + '\n');
  return result.error ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
