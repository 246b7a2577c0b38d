// Scanner benchmark:  node bench/run.mjs [--quick]
//
// Headline rows, on real-shaped sessions (line sizes of real pi sessions, shapes.mjs), in pi,
// Claude Code, Codex, Gemini CLI, Copilot CLI and Qwen Code lines, 128 MiB (32 MiB with --quick): baseline and scan alternate, 5 runs each
// (3 with --quick), median wall time → throughput ratio scan/baseline (target ≥ 0.8); on pi also
// repair (≥ 0.5), and slim at its default target on pi and Claude Code, 128 MiB and 1 GiB (≥ 0.4, peak RSS ≤ 200 MiB).
// The same shapes at 1 GiB (128 MiB with --quick): one scan each for peak RSS (≤ 200 MiB), and
// the heap a loaded transcript keeps per entry (≤ 80 bytes).
// A request / dataset file of 100,000 conversations (25,000 with --quick), one per line, in the four
// provider shapes (requests.mjs): scan and repair against the baseline, 5 runs each like the
// headline rows (a baseline of its 320 MiB ranged 2.0–2.9 s within one run of 3; 1 with --quick),
// and their peak RSS, which must stay within the sessions' bound (≤ 200 MiB).
// Second rows: the original big-line files (multi-KiB lines), which must not regress.
// Then a folder shaped like ~/.claude/projects (2,000 sessions of 20 KiB – 2 MiB; 300 with
// --quick): --jobs 2 against two processes that each scan half of it (≥ 0.95 of their speed-up).
// Then `explain` from a provider's error text to its session among 5,000 pi sessions (~2 GB; 500
// with --quick), the session an old one (≤ 5 s).
// Last, start-up: one small session scanned against a bare `node -e 0` (≤ 1.5×).
// Every measurement is a fresh child process, timed wall-clock from spawn to exit (start-up
// included, as a user sees it); peak RSS comes from rss-hook.mjs. Units are binary: MiB = 2^20
// bytes. Exit 0 whether targets pass or fail; exit 1 only if something crashed (or the CLI is
// not built).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTranscript, fmtBytes } from './generate.mjs';
import { BenchError, BIN, childRunner, f1, f2, ROOT } from './measure.mjs';
import { CLAUDE_CODE_GROWTH, ensureProjects } from './projects.mjs';
import { ensureHome } from './explain.mjs';
import { explainRow, largeRow, projectsRow, retainedRow, slimRow, throughputRow } from './rows.mjs';
import { measureStartup } from './startup.mjs';
import { cacheRows } from './cache.mjs';
import { ensureClaudeCode } from './to-claude-code.mjs';
import { CODEX_GROWTH, ensureCodex } from './to-codex.mjs';
import { GEMINI_GROWTH, ensureGemini } from './to-gemini.mjs';
import { ensureQwenCode, QWEN_GROWTH } from './to-qwen-code.mjs';
import { COPILOT_GROWTH, ensureCopilot } from './to-copilot.mjs';
import { ensureRequests } from './requests.mjs';

const MiB = 2 ** 20;
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--quick');
// Anything else (--help too) would start the whole bench, with its gigabytes of generated data.
if (unknown.length > 0) {
  console.error(`usage: npm run bench [-- --quick]   (node bench/run.mjs [--quick]); unknown: ${unknown.join(' ')}`);
  process.exit(2);
}
const quick = args.includes('--quick');
const RUNS = quick ? 3 : 5;
const TARGET = { ratio: 0.8, repair: 0.5, slim: 0.4, rssMiB: 200, bytesPerEntry: 80, startup: 1.5, jobsVsSplit: 0.95, explainSeconds: 5, warmShare: 0.05, warmVsWalk: 3, guardDelayMs: 150 };
/** The big-line pi 1 GiB row when real-shaped rows were added; 5% either way is run-to-run noise. */
const BIG_TODAY = { ratio: 0.9, rssMiB: 157, tolerance: 0.05 };

const [SMALL, LARGE] = quick ? [32 * MiB, 128 * MiB] : [128 * MiB, 1024 * MiB];
const PROJECT_FILES = quick ? 300 : 2000;
const CONVERSATIONS = quick ? 25_000 : 100_000;
const EXPLAIN_FILES = quick ? 500 : 5000;
const STARTUP_RUNS = quick ? 15 : 41;

if (!fs.existsSync(path.join(ROOT, 'dist', 'bundle', 'cli.cjs'))) {
  console.error(`bench: dist/bundle/cli.cjs not found in ${ROOT}: run \`npm run build\` first (npm run bench does).`);
  process.exit(1);
}

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/** A real-shaped Claude Code file of about `bytes`: converted from a pi session that much smaller. */
async function realClaudeCode(bytes) {
  const pi = await ensureTranscript(Math.round(bytes / CLAUDE_CODE_GROWTH), { shape: 'real', seed: 2 });
  return ensureClaudeCode(pi.file, { real: true });
}

/** A real-shaped Codex rollout of about `bytes`: converted from a pi session that much smaller. */
async function realCodex(bytes) {
  const pi = await ensureTranscript(Math.round(bytes / CODEX_GROWTH), { shape: 'real', seed: 3 });
  return ensureCodex(pi.file);
}

/** A real-shaped Gemini CLI session of about `bytes`: converted from a pi session that much smaller. */
async function realGemini(bytes) {
  const pi = await ensureTranscript(Math.round(bytes / GEMINI_GROWTH), { shape: 'real', seed: 4 });
  return ensureGemini(pi.file);
}

/** A real-shaped Qwen Code session of about `bytes`: converted from a pi session that much smaller. */
async function realQwenCode(bytes) {
  const pi = await ensureTranscript(Math.round(bytes / QWEN_GROWTH), { shape: 'real', seed: 4 });
  return ensureQwenCode(pi.file);
}

/** A real-shaped Copilot CLI session of about `bytes`: converted from a pi session that much smaller. */
async function realCopilot(bytes) {
  const pi = await ensureTranscript(Math.round(bytes / COPILOT_GROWTH), { shape: 'real', seed: 5 });
  return ensureCopilot(pi.file);
}

async function main(c) {
  console.log(`transcript-doctor bench${quick ? ' (--quick)' : ''} — node ${process.version}, ${os.cpus().length} CPU(s), load average ${load()}`);
  const result = { quick, node: process.version, cpus: os.cpus().length, loadBefore: os.loadavg() };

  // ---- headline: real-shaped files
  const realSmall = await ensureTranscript(SMALL, { shape: 'real' });
  const realLarge = await ensureTranscript(LARGE, { shape: 'real' });
  const ccSmall = await realClaudeCode(SMALL);
  const ccLarge = await realClaudeCode(LARGE);
  const cxSmall = await realCodex(SMALL);
  const gmSmall = await realGemini(SMALL);
  const qwSmall = await realQwenCode(SMALL);
  const cpSmall = await realCopilot(SMALL);
  result.real = {
    pi: await throughputRow(c, { title: 'pi, real-shaped', file: realSmall.file, bytes: realSmall.meta.bytes, lines: realSmall.meta.lines, meta: realSmall.meta, runs: RUNS, repair: true }),
    claudeCode: await throughputRow(c, { title: 'Claude Code, real-shaped', file: ccSmall.file, bytes: ccSmall.bytes, lines: ccSmall.lines, runs: RUNS }),
    codex: await throughputRow(c, { title: 'Codex, real-shaped', file: cxSmall.file, bytes: cxSmall.bytes, lines: cxSmall.lines, runs: RUNS }),
    // The bound is on 128 MiB (a Gemini log is read by one thread: its replay settles at the end), so its peak RSS is this size's.
    gemini: await throughputRow(c, { title: 'Gemini CLI, real-shaped', file: gmSmall.file, bytes: gmSmall.bytes, lines: gmSmall.lines, runs: RUNS }),
    qwenCode: await throughputRow(c, { title: 'Qwen Code, real-shaped', file: qwSmall.file, bytes: qwSmall.bytes, lines: qwSmall.lines, runs: RUNS }),
    // Issue #28 bounds the Copilot CLI scan on 128 MiB too: its peak RSS is this size's.
    copilot: await throughputRow(c, { title: 'Copilot CLI, real-shaped', file: cpSmall.file, bytes: cpSmall.bytes, lines: cpSmall.lines, runs: RUNS }),
    piLarge: await largeRow(c, { title: 'pi, real-shaped, large', file: realLarge.file, bytes: realLarge.meta.bytes, lines: realLarge.meta.lines, meta: realLarge.meta }),
    claudeCodeLarge: await largeRow(c, { title: 'Claude Code, real-shaped, large', file: ccLarge.file, bytes: ccLarge.bytes, lines: ccLarge.lines }),
  };
  console.log(`\nheap kept per entry by a loaded transcript (dist/pipeline/load-file.js, one thread, after full GCs):`);
  result.real.piRetained = await retainedRow(c, { title: `pi, real-shaped ${fmtBytes(realSmall.meta.bytes)}`, file: realSmall.file });
  result.real.claudeCodeRetained = await retainedRow(c, { title: `Claude Code, real-shaped ${fmtBytes(ccSmall.bytes)}`, file: ccSmall.file });
  // A real-shaped session of this size is far over any window: slim trims, drops thinking and compacts, to its default target.
  result.real.piSlim = await slimRow(c, { title: 'slim, pi, real-shaped', file: realSmall.file, bytes: realSmall.meta.bytes, runs: RUNS });
  result.real.claudeCodeSlim = await slimRow(c, { title: 'slim, Claude Code, real-shaped', file: ccSmall.file, bytes: ccSmall.bytes, runs: RUNS });
  // #50: slim on a 1 GiB session within scan's memory bound (one run each: the Claude Code one trims, drops thinking and compacts for half a minute).
  result.real.piSlimLarge = await slimRow(c, { title: 'slim, pi, real-shaped, large', file: realLarge.file, bytes: realLarge.meta.bytes, runs: 1 });
  result.real.claudeCodeSlimLarge = await slimRow(c, { title: 'slim, Claude Code, real-shaped, large', file: ccLarge.file, bytes: ccLarge.bytes, runs: 1 });

  // ---- a request / dataset file: each line judged and repaired on its own
  const requests = await ensureRequests(CONVERSATIONS);
  result.requests = await throughputRow(c, {
    title: `requests, ${CONVERSATIONS} conversations`, file: requests.file, bytes: requests.bytes, lines: requests.lines, runs: quick ? 1 : RUNS, repair: true,
  });

  // ---- second rows: the big-line files
  const bigSmall = await ensureTranscript(SMALL);
  const bigLarge = await ensureTranscript(LARGE);
  const bigCcSmall = await ensureClaudeCode(bigSmall.file);
  const bigCcLarge = await ensureClaudeCode(bigLarge.file);
  result.big = {
    pi: await throughputRow(c, { title: 'pi, big lines', file: bigSmall.file, bytes: bigSmall.meta.bytes, lines: bigSmall.meta.lines, meta: bigSmall.meta, runs: RUNS, repair: true }),
    claudeCode: await throughputRow(c, { title: 'Claude Code, big lines', file: bigCcSmall.file, bytes: bigCcSmall.bytes, lines: bigCcSmall.lines, runs: RUNS }),
    piLarge: await largeRow(c, { title: 'pi, big lines, large', file: bigLarge.file, bytes: bigLarge.meta.bytes, lines: bigLarge.meta.lines, meta: bigLarge.meta }),
    claudeCodeLarge: await largeRow(c, { title: 'Claude Code, big lines, large', file: bigCcLarge.file, bytes: bigCcLarge.bytes, lines: bigCcLarge.lines }),
  };

  // ---- many files, and --jobs 2 against two processes
  result.projects = await projectsRow(c, { projects: await ensureProjects(PROJECT_FILES), runs: RUNS });

  // ---- the scan cache: the projects folder warm, one session unchanged and appended, guard on a seen session
  result.cache = await cacheRows(c, { projects: await ensureProjects(PROJECT_FILES), session: realLarge, guardSession: await ensureTranscript(LARGE / 2, { shape: 'real' }), runs: RUNS, tmp });

  // ---- explain: from the error text to the session
  result.explain = await explainRow(c, { home: await ensureHome(EXPLAIN_FILES), runs: RUNS, target: TARGET.explainSeconds });

  // ---- start-up
  console.log(`\nstart-up: one small session (bench/startup.mjs), ${STARTUP_RUNS} runs each, alternating`);
  result.startup = measureStartup(STARTUP_RUNS);
  const s = result.startup;
  console.log(`  node -e 0                         ${f1(s.bare.wallMs).padStart(6)} ms   (CPU ${f1(s.bare.cpuMs)} ms)`);
  console.log(`  ${BIN} scan (bundle) ${f1(s.scan.wallMs).padStart(6)} ms   (CPU ${f1(s.scan.cpuMs)} ms) → ${f2(s.wallRatio)}× wall, ${f2(s.cpuRatio)}× CPU`);
  console.log(`  dist/cli.js scan (unbundled)      ${f1(s.unbundled.wallMs).padStart(6)} ms   (CPU ${f1(s.unbundled.cpuMs)} ms) → ${f2(s.unbundled.wallRatio)}× wall, ${f2(s.unbundled.cpuRatio)}× CPU`);

  // ---- verdict
  const r = result.real, b = result.big;
  const bigOk = b.piLarge.ratio >= BIG_TODAY.ratio * (1 - BIG_TODAY.tolerance) && b.piLarge.rssMiB != null && b.piLarge.rssMiB <= BIG_TODAY.rssMiB * (1 + BIG_TODAY.tolerance);
  const targets = [
    ['pi real-shaped scan / baseline', r.pi.ratio, `≥ ${TARGET.ratio}`, r.pi.ratio >= TARGET.ratio, fmtBytes(r.pi.bytes)],
    ['pi real-shaped repair / baseline', r.pi.repair.ratio, `≥ ${TARGET.repair}`, r.pi.repair.ratio >= TARGET.repair, fmtBytes(r.pi.bytes)],
    ['pi real-shaped slim / baseline', r.piSlim.ratio, `≥ ${TARGET.slim}`, r.piSlim.ratio >= TARGET.slim, fmtBytes(r.piSlim.bytes)],
    ['Claude Code real-shaped slim / baseline', r.claudeCodeSlim.ratio, `≥ ${TARGET.slim}`, r.claudeCodeSlim.ratio >= TARGET.slim, fmtBytes(r.claudeCodeSlim.bytes)],
    ['pi real-shaped slim peak RSS (MiB)', r.piSlim.rssMiB, `≤ ${TARGET.rssMiB}`, r.piSlim.rssMiB != null && r.piSlim.rssMiB <= TARGET.rssMiB, fmtBytes(r.piSlim.bytes)],
    ...[r.piSlimLarge, r.claudeCodeSlimLarge].flatMap((row, k) => {
      const who = k === 0 ? 'pi' : 'Claude Code';
      return [
        [`${who} real-shaped slim / baseline, large`, row.ratio, `≥ ${TARGET.slim}`, row.ratio >= TARGET.slim, fmtBytes(row.bytes)],
        [`${who} real-shaped slim peak RSS (MiB), large`, row.rssMiB, `≤ ${TARGET.rssMiB}`, row.rssMiB != null && row.rssMiB <= TARGET.rssMiB, fmtBytes(row.bytes)],
      ];
    }),
    ['Claude Code real-shaped scan / baseline', r.claudeCode.ratio, `≥ ${TARGET.ratio}`, r.claudeCode.ratio >= TARGET.ratio, fmtBytes(r.claudeCode.bytes)],
    ['Codex real-shaped scan / baseline', r.codex.ratio, `≥ ${TARGET.ratio}`, r.codex.ratio >= TARGET.ratio, fmtBytes(r.codex.bytes)],
    ['Gemini CLI real-shaped scan / baseline', r.gemini.ratio, `≥ ${TARGET.ratio}`, r.gemini.ratio >= TARGET.ratio, fmtBytes(r.gemini.bytes)],
    ['Gemini CLI real-shaped scan peak RSS (MiB)', r.gemini.scan.rssMiB, `≤ ${TARGET.rssMiB}`, r.gemini.scan.rssMiB != null && r.gemini.scan.rssMiB <= TARGET.rssMiB, fmtBytes(r.gemini.bytes)],
    ['Qwen Code real-shaped scan / baseline', r.qwenCode.ratio, `≥ ${TARGET.ratio}`, r.qwenCode.ratio >= TARGET.ratio, fmtBytes(r.qwenCode.bytes)],
    ['Qwen Code real-shaped scan peak RSS (MiB)', r.qwenCode.scan.rssMiB, `≤ ${TARGET.rssMiB}`, r.qwenCode.scan.rssMiB != null && r.qwenCode.scan.rssMiB <= TARGET.rssMiB, fmtBytes(r.qwenCode.bytes)],
    ['Copilot CLI real-shaped scan / baseline', r.copilot.ratio, `≥ ${TARGET.ratio}`, r.copilot.ratio >= TARGET.ratio, fmtBytes(r.copilot.bytes)],
    ['Copilot CLI real-shaped scan peak RSS (MiB)', r.copilot.scan.rssMiB, `≤ ${TARGET.rssMiB}`, r.copilot.scan.rssMiB != null && r.copilot.scan.rssMiB <= TARGET.rssMiB, fmtBytes(r.copilot.bytes)],
    ['pi real-shaped scan peak RSS (MiB)', r.piLarge.rssMiB, `≤ ${TARGET.rssMiB}`, r.piLarge.rssMiB != null && r.piLarge.rssMiB <= TARGET.rssMiB, fmtBytes(r.piLarge.bytes)],
    ['Claude Code real-shaped scan peak RSS (MiB)', r.claudeCodeLarge.rssMiB, `≤ ${TARGET.rssMiB}`, r.claudeCodeLarge.rssMiB != null && r.claudeCodeLarge.rssMiB <= TARGET.rssMiB, fmtBytes(r.claudeCodeLarge.bytes)],
    ['requests scan peak RSS (MiB)', result.requests.scan.rssMiB, `≤ ${TARGET.rssMiB}`, result.requests.scan.rssMiB != null && result.requests.scan.rssMiB <= TARGET.rssMiB, `${result.requests.lines} conversations`],
    ['requests repair peak RSS (MiB)', result.requests.repair.rssMiB, `≤ ${TARGET.rssMiB}`, result.requests.repair.rssMiB != null && result.requests.repair.rssMiB <= TARGET.rssMiB, `${result.requests.lines} conversations`],
    ['pi bytes kept per entry', r.piRetained.bytesPerEntry, `≤ ${TARGET.bytesPerEntry}`, r.piRetained.bytesPerEntry <= TARGET.bytesPerEntry, `${r.piRetained.entries} entries`],
    ['Claude Code bytes kept per entry', r.claudeCodeRetained.bytesPerEntry, `≤ ${TARGET.bytesPerEntry}`, r.claudeCodeRetained.bytesPerEntry <= TARGET.bytesPerEntry, `${r.claudeCodeRetained.entries} entries`],
    ['big-line pi scan / baseline, peak RSS', `${f2(b.piLarge.ratio)}, ${f1(b.piLarge.rssMiB)} MiB`, `no regression (${BIG_TODAY.ratio} / ${BIG_TODAY.rssMiB} MiB ±${BIG_TODAY.tolerance * 100}%)`, bigOk, fmtBytes(b.piLarge.bytes)],
    ['--jobs 2 speed-up / two-process split', result.projects.jobsVsSplit, `≥ ${TARGET.jobsVsSplit}`, result.projects.jobsVsSplit >= TARGET.jobsVsSplit, `${result.projects.files} files`],
    ['explain finds the session (s)', result.explain.seconds, `≤ ${TARGET.explainSeconds}`, result.explain.seconds <= TARGET.explainSeconds, `${result.explain.files} files, ${fmtBytes(result.explain.bytes)}`],
    ['warm scan, unchanged projects folder / cold', result.cache.projects.warmShare, `≤ ${TARGET.warmShare}`, result.cache.projects.warmShare <= TARGET.warmShare, `${result.cache.projects.files} files`],
    ['warm scan, unchanged projects folder / stat walk', result.cache.projects.warmVsWalk, `≤ ${TARGET.warmVsWalk}`, result.cache.projects.warmVsWalk <= TARGET.warmVsWalk, `${result.cache.projects.files} files`],
    ['warm scan after 1 MiB appended / cold', result.cache.session.appendedShare, `≤ ${TARGET.warmShare}`, result.cache.session.appendedShare <= TARGET.warmShare, fmtBytes(result.cache.session.bytes)],
    ['guard after 1 MiB appended: agent delay (ms)', result.cache.guard.grownDelayMs, `≤ ${TARGET.guardDelayMs}`, result.cache.guard.grownDelayMs <= TARGET.guardDelayMs, fmtBytes(result.cache.guard.bytes)],
    ['small-file scan / bare node start', s.wallRatio, `≤ ${TARGET.startup}`, s.wallRatio <= TARGET.startup, `median of ${STARTUP_RUNS}`],
  ];
  result.targets = targets.map(([name, value, target, pass, on]) => ({ name, value, target, pass, on }));
  result.pass = targets.every((t) => t[3]);
  result.loadAfter = os.loadavg();
  console.log(`\ntargets (load average now ${load()}):`);
  for (const [name, value, target, pass, on] of targets) {
    console.log(`${pass ? 'PASS' : 'FAIL'}  ${name.padEnd(44)} ${(typeof value === 'number' ? f2(value) : value).padStart(18)}  target ${target}  (${on})`);
  }
  // Round for a compact machine-readable last line.
  console.log(JSON.stringify(result, (k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 100) / 100 : v)));
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'td-bench-'));
try {
  await main(childRunner(tmp));
} catch (e) {
  console.error(`\nbench FAILED: ${e instanceof BenchError ? e.message : e.stack}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
