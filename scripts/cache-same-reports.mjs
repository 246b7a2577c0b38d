#!/usr/bin/env node
// The scan cache's promise on real files: a report with the cache is the report without it.
//
//   node scripts/cache-same-reports.mjs <folder>     (the corpus: ../shared/corpus)
//
// Copies every file of the folder (not *.md) into a temp folder, scans the copies without the
// cache, then twice with a new cache (cold, warm), then applies one in-place edit to each copy
// that keeps its size and modification time (a byte of a string changed where one is found) and
// scans again with and without the warm cache; then appends two of its own lines to each copy and
// scans again (the warm cache reads each on from the checkpoint it left). Prints one JSON line:
// files, how many were edited and how many reports the edit changed, how many checkpoints there
// were before the append, each scan's seconds (a warm scan answered from the cache
// is the fast one), and every file whose report differed. Exit 0 when all agree,
// 1 when one differed, 2 on bad usage.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { corpusFiles } from './corpus-files.mjs';

const folder = process.argv[2];
if (folder === undefined || process.argv.length > 3 || !statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
  console.error('usage: node scripts/cache-same-reports.mjs <folder>');
  process.exit(2);
}
const bin = new URL('../bin/transcript-doctor.js', import.meta.url).pathname;

const root = mkdtempSync(join(tmpdir(), 'td-cache-same-'));
const copies = [...corpusFiles(folder)].map((path, i) => {
  // A numbered folder each keeps the file's own name, which can decide its format.
  const dir = join(root, 'files', String(i));
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, basename(path));
  copyFileSync(path, copy);
  return copy;
});
const cacheDir = join(root, 'cache');
// Times in whole seconds: what utimes puts back exactly; and old enough that the cache remembers them.
const STAMP = 1_700_000_000;
copies.forEach((copy) => utimesSync(copy, STAMP, STAMP));

/** Each file's report (findings and format), by path, from one scan of every copy. */
const seconds = {};
function scan(cache, phase) {
  const began = Date.now();
  const args = [bin, 'scan', ...copies, '--reporter', 'json', ...(cache ? ['--cache-dir', cacheDir] : ['--no-cache'])];
  // Every file checkpointed, however small: the append below is then read on from each one's checkpoint.
  const env = { ...process.env, CI: '1', TRANSCRIPT_DOCTOR_CHECKPOINT_MIN_BYTES: '0', TRANSCRIPT_DOCTOR_MAX_CHECKPOINTS: '100000' };
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 30, env });
  if (![0, 1].includes(child.status)) throw new Error(`scan exited ${child.status}: ${child.stderr.split('\n')[0]}`);
  const report = JSON.parse(child.stdout);
  seconds[phase] = (Date.now() - began) / 1000;
  return new Map(report.files.map((file) => [file.path, JSON.stringify(file)]));
}

/** The files whose report differs from the expected one. */
function differences(expected, got, phase) {
  const out = [];
  for (const [path, report] of expected) if (got.get(path) !== report) out.push({ phase, path: path.slice(root.length + 1) });
  if (got.size !== expected.size) out.push({ phase, path: `(${got.size} reports, ${expected.size} expected)` });
  return out;
}

/** One byte of a string changed in place (a letter to another letter), size and times kept; false when none is found. */
function editInPlace(path) {
  const bytes = readFileSync(path);
  for (let i = Math.floor(bytes.length / 2); i < bytes.length; i++) {
    const byte = bytes[i];
    if ((byte >= 0x61 && byte < 0x7a) || (byte >= 0x41 && byte < 0x5a)) {
      bytes[i] = byte + 1;
      writeFileSync(path, bytes);
      utimesSync(path, STAMP, STAMP);
      return true;
    }
  }
  return false;
}

/** Two whole lines from the file's middle, appended after it (a newline first when it ends without one). */
function appendOwnLines(path) {
  const text = readFileSync(path, 'latin1');
  const lines = text.split('\n');
  const middle = Math.floor(lines.length / 2);
  const taken = lines.slice(middle, middle + 2).join('\n');
  appendFileSync(path, Buffer.from(`${text.endsWith('\n') || text === '' ? '' : '\n'}${taken}\n`, 'latin1'));
}

const plain = scan(false, 'none');
const found = [...differences(plain, scan(true, 'cold'), 'cold'), ...differences(plain, scan(true, 'warm'), 'warm')];
const edited = copies.filter(editInPlace).length;
const plainEdited = scan(false, 'none, edited');
found.push(...differences(plainEdited, scan(true, 'warm, edited'), 'edited in place'));
// How many of the edited files' reports the edit changed: the comparison above would miss a stale answer only if none did.
const changedByEdit = [...plainEdited].filter(([path, report]) => plain.get(path) !== report).length;
// Then each copy grows by two of its own lines from its middle (the warm scan above left checkpoints): read on from its checkpoint.
const checkpoints = readdirSync(cacheDir).filter((name) => name.startsWith('checkpoint-')).length;
copies.forEach(appendOwnLines);
const plainAppended = scan(false, 'none, appended');
found.push(...differences(plainAppended, scan(true, 'warm, appended'), 'appended'));
rmSync(root, { recursive: true, force: true });
console.log(JSON.stringify({ files: copies.length, edited, changedByEdit, checkpoints, differences: found, seconds }));
process.exit(found.length === 0 ? 0 : 1);
