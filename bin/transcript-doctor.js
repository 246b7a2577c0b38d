#!/usr/bin/env node
'use strict';
const { join } = require('node:path');
const { CACHE_ENV, loadBundle } = require('./load-bundle.js');

process.stdout.on('error', (error) => {
  // A closed pipe (`| head`) is the reader's choice, not a failure.
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const bundle = join(__dirname, '..', 'dist', 'bundle', 'cli.cjs');
let cli;
try {
  cli = loadBundle(bundle);
} catch (error) {
  if (error.code !== 'ENOENT' || error.path !== bundle) throw error;
  // A checkout where only tsc ran: say what to do instead of a stack trace.
  process.stderr.write(`transcript-doctor: ${bundle} is missing; run \`npm run build\` first\n`);
  process.exit(2);
}
cli.exports.main(process.argv).then((code) => {
  process.exitCode = code;
  if (process.env[CACHE_ENV] !== undefined) cli.writeCache(process.env[CACHE_ENV]);
});
