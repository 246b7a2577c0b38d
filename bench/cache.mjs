// The scan cache's rows (docs/cache.md):
//  - an unchanged projects folder: a warm scan against a cold one (--no-cache) and a plain walk
//    that stats the same files (stat-walk.mjs), all child processes, start-up included;
//  - one big session, unchanged, then with 1 MiB appended: warm against cold (append-aware checks
//    are not built: an appended file is a cold scan, and the row says so);
//  - guard on a seen, unchanged session against `node -e 0` and the stand-in agent alone.
//   node bench/cache.mjs [--quick]      (run.mjs runs the same rows)

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTranscript, fmtBytes } from './generate.mjs';
import { BenchError, BIN, childRunner, f1, f2, median, rel } from './measure.mjs';
import { ensureProjects } from './projects.mjs';

const MiB = 2 ** 20;

/** Runs the rows with a runner `c` (measure.mjs); `cacheDir` is this bench's own cache. */
export async function cacheRows(c, { projects, session, runs, tmp }) {
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
  await new Promise((resolve) => setTimeout(resolve, 2100)); // older than the cache's racy window
  console.log(`\nscan cache, one session: ${fmtBytes(fs.statSync(big).size)} (a copy of ${rel(session.file)})`);
  const first = await c.scan(big, withCache);
  const sessionClean = JSON.parse(first.text).files[0].findings.length === 0;
  const bigCold = await c.scan(big, ['--no-cache']);
  const bigWarm = await c.scan(big, withCache);
  // 1 MiB of whole lines from the session's own middle, appended.
  const fd = fs.openSync(big, 'r');
  const chunk = Buffer.alloc(2 * MiB);
  fs.readSync(fd, chunk, 0, chunk.length, Math.floor(fs.statSync(big).size / 2));
  fs.closeSync(fd);
  const from = chunk.indexOf(0x0a) + 1;
  const to = chunk.lastIndexOf(0x0a, from + MiB) + 1;
  fs.appendFileSync(big, chunk.subarray(from, to));
  const appended = await c.scan(big, withCache);
  row.session = { bytes: fs.statSync(big).size, clean: sessionClean, coldMs: Math.round(bigCold.wallMs), warmMs: Math.round(bigWarm.wallMs), appendedMs: Math.round(appended.wallMs), warmShare: bigWarm.wallMs / bigCold.wallMs, appendedShare: appended.wallMs / bigCold.wallMs };
  console.log(`  cold ${(bigCold.wallMs / 1000).toFixed(2)} s   warm, unchanged ${(bigWarm.wallMs / 1000).toFixed(3)} s (${f1(100 * row.session.warmShare)}%)   ` +
    `warm after 1 MiB appended ${(appended.wallMs / 1000).toFixed(2)} s (${f1(100 * row.session.appendedShare)}%; target ≤ 5%: append-aware checks are not built, an appended file is a cold scan)`);

  // ---- guard on a seen session
  row.guard = await guardRow(c, { session: session.file, runs, tmp, cacheDir });
  return row;
}

/** A pi home with one clean session and a stand-in `pi` that exits at once; guard -- pi --session <file>. */
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
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const env = { HOME: home, PATH: `${bin}${path.delimiter}${process.env.PATH}`, PI_CODING_AGENT_DIR: '' };
  const guard = (extra) => c.runNode([BIN, 'guard', ...extra, '--', 'pi', '--session', file], { env });
  const seen = await guard(['--cache-dir', cacheDir]);
  if (seen.code !== 0) throw new BenchError(`guard failed: ${seen.stderr}`);
  const cold = [], warm = [], bare = [], agent = [];
  for (let i = 0; i < runs; i++) {
    cold.push(await guard(['--no-cache']));
    warm.push(await guard(['--cache-dir', cacheDir]));
    bare.push(await c.runNode(['-e', '0']));
    agent.push(await c.runNode([path.join(bin, 'pi')]));
  }
  const ms = (list) => median(list.map((r) => r.wallMs));
  const out = { bytes: fs.statSync(file).size, coldMs: Math.round(ms(cold)), warmMs: Math.round(ms(warm)), bareMs: Math.round(ms(bare)), agentMs: Math.round(ms(agent)) };
  out.delayMs = out.warmMs - out.agentMs;
  out.warmVsBare = ms(warm) / ms(bare);
  console.log(`\nguard on a seen, unchanged ${fmtBytes(out.bytes)} pi session: --no-cache ${out.coldMs} ms   cached ${out.warmMs} ms   the stand-in agent alone ${out.agentMs} ms   node -e 0 ${out.bareMs} ms` +
    ` → the agent starts ${out.delayMs} ms later than without guard (target ≤ 150 ms), guard = ${f2(out.warmVsBare)}× node -e 0 (the checks before and after answered from the cache)`);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const quick = process.argv.includes('--quick');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'td-bench-cache-'));
  try {
    const c = childRunner(tmp);
    const projects = await ensureProjects(quick ? 300 : 2000);
    const session = await ensureTranscript(128 * MiB, { shape: "real", seed: 1 });
    const runs = quick ? 3 : 5;
    console.log(JSON.stringify(await cacheRows(c, { projects, session, runs, tmp })));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
