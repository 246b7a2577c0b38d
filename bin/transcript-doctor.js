#!/usr/bin/env node
import { main } from '../dist/cli.js';

process.stdout.on('error', (error) => {
  // A closed pipe (`| head`) is the reader's choice, not a failure.
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv);
