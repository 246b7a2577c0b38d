// The scan cache's rows (docs/cache.md):
//  - an unchanged projects folder: a warm scan against a cold one (--no-cache) and a plain walk
//    that stats the same files (stat-walk.mjs), all child processes, start-up included;
//  - one big session (1 GiB), unchanged, then with 1 MiB of new turns appended: warm (from the
//    checkpoint the first scan left) against cold;
//  - guard on a seen session (512 MiB), unchanged and after a 1 MiB append, against `node -e 0`
//    and the stand-in agent alone.
//   node bench/cache.mjs [--quick]      (run.mjs runs the same rows)

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { ensureTranscript, fmtBytes, generateTranscript } from './generate.mjs';
import { BenchError, BIN, childRunner, f1, f2, median, rel } from './measure.mjs';
import { ensureProjects } from './projects.mjs';

const MiB = 2 ** 20;

/** Runs the rows with a runner `c` (measure.mjs); `cacheDir` is this bench's own cache. */
export async function cacheRows(c, { projects, session, guardSession, runs, tmp }) {
  const cacheDir = path.join(tmp, 'scan-cache');
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const withCache = ['--cache-dir', cacheDir];
  const row = {};

  // ---- projects folder
  const { dir, files, bytes } = projects;
  console.log(`\nscan cache, projects folder: ${rel(dir)} (${files} sessions, ${fmtBytes(bytes)})`);
  const primed = await c.scan(rel(dir), withCache);
  const cold = [], warm = [], walk = [];
  for (let i = 0; i < runs; i++) {
    cold.push(await c.scan(rel(dir), ['--no-cache']));
    warm.push(await c.scan(rel(dir), withCache));
    walk.push(await c.runNode(['bench/stat-walk.mjs', rel(dir)]));
    console.log(`  cold ${(cold[i].wallMs / 1000).toFixed(2)} s   warm ${(warm[i].wallMs / 1000).toFixed(3)} s   stat walk ${(walk[i].wallMs / 1000).toFixed(3)} s`);
  }
  if (warm.some((r) => r.text !== cold[0].text) || primed.text !== cold[0].text) throw new BenchError('warm and cold reports of the projects folder differ');
  const clean = JSON.parse(cold[0].text).files.filter((file) => file.findings.length === 0).length;
  const coldMs = median(cold.map((r) => r.wallMs));
  const warmMs = median(warm.map((r) => r.wallMs));
  const walkMs = median(walk.map((r) => r.wallMs));
  row.projects = { files, clean, coldMs: Math.round(coldMs), warmMs: Math.round(warmMs), walkMs: Math.round(walkMs), warmShare: warmMs / coldMs, warmVsWalk: warmMs / walkMs };
  console.log(`  ${clean} of ${files} files clean; warm = ${f1(100 * row.projects.warmShare)}% of cold (target ≤ 5%), ${f2(row.projects.warmVsWalk)}× the stat walk (target ≤ 3×); identical reports`);

  // ---- one big session, unchanged and appended
  const big = path.join(tmp, 'cache-session.jsonl');
  fs.copyFileSync(session.file, big);
  const turns = await freshTurns(tmp, MiB, lastId(big));
  await new Promise((resolve) => setTimeout(resolve, 2100)); // older than the cache's racy window
  console.log(`\nscan cache, one session: ${fmtBytes(fs.statSync(big).size)} (a copy of ${rel(session.file)}), then ${fmtBytes(turns.length)} of new turns appended`);
  const first = await c.scan(big, withCache); // leaves the verdict and a checkpoint
  const sessionClean = JSON.parse(first.text).files[0].findings.length === 0;
  const bigCold = await c.scan(big, ['--no-cache']);
  const bigWarm = await c.scan(big, withCache);
  // Each run: the same turns appended to the file as it was seen (a truncation to it and an append: a new stamp, the same bytes).
  const seenSize = fs.statSync(big).size;
  const appended = [], appendedCold = [];
  for (let i = 0; i < runs; i++) {
    fs.truncateSync(big, seenSize);
    fs.appendFileSync(big, turns);
    appended.push(await c.scan(big, withCache));
    if (i < Math.min(runs, 3)) appendedCold.push(await c.scan(big, ['--no-cache']));
  }
  if (appended.some((r) => r.text !== appendedCold[0].text)) throw new BenchError('reports of the appended session differ with and without the cache');
  const grownColdMs = median(appendedCold.map((r) => r.wallMs));
  const appendedMs = median(appended.map((r) => r.wallMs));
  row.session = { bytes: fs.statSync(big).size, appendedBytes: turns.length, clean: sessionClean, coldMs: Math.round(bigCold.wallMs), warmMs: Math.round(bigWarm.wallMs), appendedColdMs: Math.round(grownColdMs), appendedMs: Math.round(appendedMs), warmShare: bigWarm.wallMs / bigCold.wallMs, appendedShare: appendedMs / grownColdMs };
  console.log(`  cold ${(bigCold.wallMs / 1000).toFixed(2)} s   warm, unchanged ${(bigWarm.wallMs / 1000).toFixed(3)} s (${f1(100 * row.session.warmShare)}%)   ` +
    `after the append: cold ${(grownColdMs / 1000).toFixed(2)} s, warm ${(appendedMs / 1000).toFixed(3)} s (${f1(100 * row.session.appendedShare)}% of cold; target ≤ 5%); identical reports`);

  // ---- guard on a seen session, unchanged and appended
  row.guard = await guardRow(c, { session: guardSession.file, runs, tmp, cacheDir });
  return row;
}

/** The id of the file's last entry: what appended turns hang on. */
function lastId(file) {
  // Only the tail is read: a 1 GiB file is more than a string can hold.
  const size = fs.statSync(file).size;
  const length = Math.min(size, 8 * MiB);
  const tail = Buffer.alloc(length);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, tail, 0, length, size - length);
  } finally {
    fs.closeSync(fd);
  }
  const text = tail.toString('utf8');
  return JSON.parse(text.slice(text.lastIndexOf('\n', text.length - 2) + 1)).id;
}

/**
 * About `bytes` of new real-shaped pi turns, as an agent appends them: a session generated
 * with another seed (new ids), repaired so it is clean, its header left out and its first entry
 * hung on `parent`.
 */
async function freshTurns(tmp, bytes, parent) {
  const file = path.join(tmp, 'fresh-turns.jsonl');
  await generateTranscript(file, bytes, { seed: 7, shape: 'real' });
  const repaired = spawnSync(process.execPath, [BIN, 'repair', file, '--in-place', '--no-backup'], { encoding: 'utf8' });
  if (repaired.status !== 0 && repaired.status !== 1) throw new BenchError(`repair of the appended turns failed: ${repaired.stderr}`);
  // Ids one character longer than the session's: another seed's 8-hex ids can meet the session's (a duplicate id, a finding).
  const lines = fs.readFileSync(file, 'utf8').split('\n').slice(1).join('\n').replace(/"(id|parentId|firstKeptEntryId)":"([0-9a-f]{8})"/g, '"$1":"$2n"');
  fs.rmSync(file);
  return Buffer.from(lines.replace('"parentId":null', `"parentId":${JSON.stringify(parent)}`));
}

/**
 * A pi home with one clean session and a stand-in `pi` that exits at once; guard -- pi --session <file>:
 * seen and unchanged, then seen and with 1 MiB of new turns appended (the case of every agent start).
 */
async function guardRow(c, { session, runs, tmp, cacheDir }) {
  const home = path.join(tmp, 'guard-home');
  fs.rmSync(home, { recursive: true, force: true });
  const sessions = path.join(home, '.pi', 'agent', 'sessions', '--work--');
  fs.mkdirSync(sessions, { recursive: true });
  const file = path.join(sessions, 'session.jsonl');
  fs.copyFileSync(session, file);
  const bin = path.join(home, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'pi'), `#!${process.execPath}\n`, { mode: 0o755 });
  const env = { HOME: home, PATH: `${bin}${path.delimiter}${process.env.PATH}`, PI_CODING_AGENT_DIR: '' };
  const guard = (extra) => c.runNode([BIN, 'guard', ...extra, '--', 'pi', '--session', file], { env });
  // The first guard repairs the generated session (it has the damage real ones have), into a new file; the second checks it and keeps a checkpoint.
  for (let k = 0; k < 2; k++) {
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const seen = await guard(['--cache-dir', cacheDir]);
    if (seen.code !== 0) throw new BenchError(`guard failed: ${seen.stderr}`);
  }
  const turns = await freshTurns(tmp, MiB, lastId(file));
  const seenSize = fs.statSync(file).size;
  const cold = [], warm = [], grown = [], bare = [], agent = [];
  for (let i = 0; i < runs; i++) {
    cold.push(await guard(['--no-cache']));
    warm.push(await guard(['--cache-dir', cacheDir]));
    bare.push(await c.runNode(['-e', '0']));
    agent.push(await c.runNode([path.join(bin, 'pi')]));
  }
  // Each run: the same turns appended to the session as it was seen (a truncation to it and an append: a new stamp, the same bytes).
  for (let i = 0; i < runs; i++) {
    fs.truncateSync(file, seenSize);
    fs.appendFileSync(file, turns);
    grown.push(await guard(['--cache-dir', cacheDir]));
    if (fs.statSync(file).size !== seenSize + turns.length) throw new BenchError('guard rewrote the appended session: the appended turns are not clean');
  }
  const ms = (list) => median(list.map((r) => r.wallMs));
  const out = { bytes: seenSize, coldMs: Math.round(ms(cold)), warmMs: Math.round(ms(warm)), grownMs: Math.round(ms(grown)), bareMs: Math.round(ms(bare)), agentMs: Math.round(ms(agent)) };
  out.delayMs = out.warmMs - out.agentMs;
  out.grownDelayMs = out.grownMs - out.agentMs;
  out.warmVsBare = ms(warm) / ms(bare);
  out.grownVsBare = ms(grown) / ms(bare);
  console.log(`\nguard on a seen ${fmtBytes(out.bytes)} pi session: --no-cache ${out.coldMs} ms   unchanged ${out.warmMs} ms   with ${fmtBytes(turns.length)} appended ${out.grownMs} ms   the stand-in agent alone ${out.agentMs} ms   node -e 0 ${out.bareMs} ms`);
  console.log(`  → the agent starts ${out.delayMs} ms later than without guard when the session is unchanged (${f2(out.warmVsBare)}× node -e 0), ${out.grownDelayMs} ms later after the append (${f2(out.grownVsBare)}× node -e 0; target ≤ 150 ms)`);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const quick = process.argv.includes('--quick');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'td-bench-cache-'));
  try {
    const c = childRunner(tmp);
    const projects = await ensureProjects(quick ? 300 : 2000);
    const session = await ensureTranscript((quick ? 128 : 1024) * MiB, { shape: 'real', seed: 1 });
    const guardSession = await ensureTranscript((quick ? 64 : 512) * MiB, { shape: 'real', seed: 1 });
    const runs = quick ? 3 : 5;
    console.log(JSON.stringify(await cacheRows(c, { projects, session, guardSession, runs, tmp })));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
