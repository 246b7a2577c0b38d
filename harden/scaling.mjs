// Reliability: cost linear in the input (issue 49, E20–E22).
//
//   node harden/scaling.mjs        (after `npm run build`)
//
// Scans (and for the unanswered calls, repairs) each shape of harden/lib/scaling-shapes.mjs at
// four sizes, n to 8n, with the built CLI. Prints CPU seconds (user + system: other processes
// share the machine, so wall time says little) and peak RSS per size, and exits 1 when a doubling
// of the input more than SLOPE-folds either (start-up cost included: a linear cost grows less than
// 2×, a square one nearly 4×), or a run exceeds 60 s or 200 MB, or ends otherwise than expected.
// A finding costs a few KiB of report, so the unanswered calls stop at 20,000.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCALING_SHAPES } from './lib/scaling-shapes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'transcript-doctor.js');
const SLOPE = 2.6;
const LIMIT_S = 60;
const LIMIT_MIB = 200;

if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) {
  console.error('harden scaling: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
try {
  execFileSync('/usr/bin/time', ['-f', '%M', 'true'], { stdio: 'ignore' });
} catch {
  console.error('harden scaling: needs /usr/bin/time (GNU time) for CPU time and peak RSS');
  process.exit(1);
}

/** Shape, command, sizes, the exit code expected. */
const CASES = [
  ['E20 pi', 'scan', [2_500, 5_000, 10_000, 20_000], 1],
  ['E20 pi', 'repair', [2_500, 5_000, 10_000, 20_000], 0],
  ['E20 claude-code', 'scan', [2_500, 5_000, 10_000, 20_000], 1],
  ['E20 claude-code', 'repair', [2_500, 5_000, 10_000, 20_000], 0],
  ['E20 codex', 'scan', [2_500, 5_000, 10_000, 20_000], 1],
  ['E20 codex', 'repair', [2_500, 5_000, 10_000, 20_000], 0],
  ['E20 gemini-cli', 'scan', [2_500, 5_000, 10_000, 20_000], 1],
  ['E20 gemini-cli', 'repair', [2_500, 5_000, 10_000, 20_000], 0],
  ['E21 pi forks', 'scan', [5_000, 10_000, 20_000, 40_000], 0],
  ['E22 gemini-cli rewinds', 'scan', [10_000, 20_000, 40_000, 80_000], 0],
];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'td-harden-scaling-'));
let failed = 0;
try {
  for (const [shape, command, sizes, expected] of CASES) {
    const rows = sizes.map((n) => measure(shape, command, n));
    console.log(`${shape}, ${command}`);
    rows.forEach((row, i) => {
      const problems = [];
      if (row.code !== expected) problems.push(`exit ${row.code}, expected ${expected}: ${row.stderr.trim().split('\n')[0]}`);
      if (row.seconds > LIMIT_S) problems.push(`over ${LIMIT_S} s`);
      if (row.mib > LIMIT_MIB) problems.push(`over ${LIMIT_MIB} MB`);
      const before = rows[i - 1];
      if (before !== undefined) {
        if (row.seconds / before.seconds > SLOPE) problems.push(`time ${(row.seconds / before.seconds).toFixed(2)}× for 2× the input`);
        if (row.mib / before.mib > SLOPE) problems.push(`memory ${(row.mib / before.mib).toFixed(2)}× for 2× the input`);
      }
      if (problems.length > 0) failed += 1;
      console.log(`  n=${String(row.n).padStart(6)}  ${row.mb.toFixed(2).padStart(6)} MB in  ${row.seconds.toFixed(2).padStart(6)} s CPU  ${row.mib.toFixed(0).padStart(4)} MB peak  ${problems.length === 0 ? 'ok' : 'FAIL: ' + problems.join('; ')}`);
    });
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(failed === 0 ? 'harden scaling: every shape linear' : `harden scaling: ${failed} measurements failed`);
process.exitCode = failed === 0 ? 0 : 1;

function measure(shape, command, n) {
  const file = path.join(tmp, `${shape.replace(/\W+/g, '-')}-${n}.jsonl`);
  fs.writeFileSync(file, SCALING_SHAPES[shape](n));
  const args = command === 'scan' ? ['scan', '-f', 'json', file] : ['repair', '--out', `${file}.out`, file];
  const run = spawnSync('/usr/bin/time', ['-f', '%U %S %M', process.execPath, BIN, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    timeout: 5 * LIMIT_S * 1000,
    env: { ...process.env, CI: '1', NO_COLOR: '1' },
  });
  const last = run.stderr.trim().split('\n').pop() ?? '';
  const [user, system, kib] = last.split(' ').map(Number);
  const row = { n, mb: fs.statSync(file).size / 2 ** 20, seconds: (user ?? NaN) + (system ?? NaN), mib: (kib ?? NaN) / 1024, code: run.status, stderr: run.stderr };
  fs.rmSync(file);
  fs.rmSync(`${file}.out`, { force: true });
  return row;
}
