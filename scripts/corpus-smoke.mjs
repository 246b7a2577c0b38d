// Smoke test over a folder of real transcripts (../shared/corpus in CI): every file must be
// scanned, repaired, canonicalized and slimmed without a crash, a stack trace or a usage error,
// and doing any of them again to the result must change nothing. With --slim, slim runs twice too:
// at its default target (a file that fits comes out byte for byte) and at a small one, so most
// files are slimmed (.ci/run passes --slim). Prints one summary line.
//   node scripts/corpus-smoke.mjs <folder> [--slim]
//   node scripts/corpus-smoke.mjs <folder>
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { corpusFiles } from './corpus-files.mjs';

const root = process.argv[2];
if (!root) {
  console.error('usage: node scripts/corpus-smoke.mjs <folder> [--slim]');
  process.exit(2);
}
const bin = new URL('../bin/transcript-doctor.js', import.meta.url).pathname;

/** Runs the CLI; returns its JSON report, or records a failure. */
function run(args, file) {
  const child = spawnSync(process.execPath, [bin, ...args, '--reporter', 'json'], { encoding: 'utf8', env: { ...process.env, CI: '1' } });
  let report;
  try {
    report = JSON.parse(child.stdout);
  } catch {
    report = undefined;
  }
  if (![0, 1].includes(child.status) || child.stderr !== '' || report === undefined) {
    failures.push(`${args[0]} ${file}: exit ${child.status} ${child.stderr.split('\n')[0]}`);
    return undefined;
  }
  return report;
}

const withSlim = process.argv.includes('--slim');
/** Tokens: under most real sessions, so slim has work on them. */
const SMALL_TARGET = '2000';

const work = mkdtempSync(join(tmpdir(), 'corpus-smoke-'));
let scanned = 0;
let findings = 0;
let repaired = 0;
let slimmed = 0;
const failures = [];
for (const file of corpusFiles(root)) {
  scanned += 1;
  const scan = run(['scan', file], file);
  if (scan === undefined) continue;
  findings += scan.files[0].findings.length;
  // Claude Code files are scanned only; rewriting them is refused on purpose for now.
  // Outputs keep the file's name: a name can decide its format (a Gemini CLI `session-*.json` is one JSON document).
  const once = join(work, `${scanned}-1`, basename(file));
  const twice = join(work, `${scanned}-2`, basename(file));
  mkdirSync(dirname(once));
  mkdirSync(dirname(twice));
  const first = run(['repair', file, '--out', once], file);
  if (first === undefined) continue;
  if (first.files[0].changed) repaired += 1;
  const second = run(['repair', once, '--out', twice], once);
  if (second !== undefined && second.files[0].changed) failures.push(`repair ${file}: not idempotent (a second repair changed it again)`);
  const canonical = run(['canonicalize', file, '--out', once], file);
  const again = canonical === undefined ? undefined : run(['canonicalize', once, '--out', twice], once);
  if (again !== undefined && again.files[0].changed) failures.push(`canonicalize ${file}: not idempotent`);
  if (!withSlim) continue;
  rmSync(once, { force: true });
  const fits = run(['slim', file, '--out', once], file);
  if (fits !== undefined && !fits.files[0].changed && !readFileSync(once).equals(readFileSync(file))) failures.push(`slim ${file}: a file left as it is was not copied byte for byte`);
  const slim = run(['slim', file, '--target', SMALL_TARGET, '--out', once], file);
  if (slim === undefined) continue;
  if (slim.files[0].changed) slimmed += 1;
  const slimAgain = run(['slim', once, '--target', SMALL_TARGET, '--out', twice], once);
  if (slimAgain !== undefined && slimAgain.files[0].changed) failures.push(`slim ${file}: not idempotent at the same target`);
}
rmSync(work, { recursive: true, force: true });
for (const failure of failures) console.error(`corpus smoke FAILED ${failure}`);
console.log(`corpus smoke: ${scanned} files scanned, ${findings} findings, ${repaired} repaired, ${slimmed} slimmed, ${failures.length} failures`);
process.exit(failures.length === 0 ? 0 : 1);
