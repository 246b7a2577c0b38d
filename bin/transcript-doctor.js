#!/usr/bin/env node
'use strict';
const { join } = require('node:path');
const { CACHE_ENV, loadBundle } = require('./load-bundle.js');

process.stdout.on('error', (error) => {
  // A closed pipe (`| head`) is the reader's choice, not a failure.
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const cli = loadBundle(join(__dirname, '..', 'dist', 'bundle', 'cli.cjs'));
cli.exports.main(process.argv).then((code) => {
  process.exitCode = code;
  if (process.env[CACHE_ENV] !== undefined) cli.writeCache(process.env[CACHE_ENV]);
});
