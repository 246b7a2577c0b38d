// Smoke test over a folder of real transcripts (../shared/corpus in CI): every file must be
// scanned without a crash, a stack trace or a usage error. Prints one summary line.
//   node scripts/corpus-smoke.mjs <folder>
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2];
if (!root) {
  console.error('usage: node scripts/corpus-smoke.mjs <folder>');
  process.exit(2);
}
const bin = new URL('../bin/transcript-doctor.js', import.meta.url).pathname;

function* files(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (!name.endsWith('.md')) yield path;
  }
}

let scanned = 0;
let findings = 0;
const failures = [];
for (const file of files(root)) {
  scanned += 1;
  const run = spawnSync(process.execPath, [bin, 'scan', file, '--reporter', 'json'], { encoding: 'utf8', env: { ...process.env, CI: '1' } });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = undefined;
  }
  if (![0, 1].includes(run.status) || run.stderr !== '' || report === undefined) {
    failures.push(`${file}: exit ${run.status} ${run.stderr.split('\n')[0]}`);
    continue;
  }
  findings += report.files[0].findings.length;
}
for (const failure of failures) console.error(`corpus smoke FAILED ${failure}`);
console.log(`corpus smoke: ${scanned} files scanned, ${findings} findings, ${failures.length} crashes`);
process.exit(failures.length === 0 ? 0 : 1);
