// Scanner benchmark:  node bench/run.mjs [--quick] [--baseline-only]
//
// Small file (128 MiB; 32 MiB with --quick): baseline and scanner alternate,
// 3 runs each, median wall time → throughput ratio scan/baseline (target ≥ 0.8).
// Then repair on the small file, alternating with the baseline (target ≥ 0.5).
// Large file (1 GiB; 128 MiB with --quick): one scan for peak RSS (target ≤ 200 MiB)
// and throughput, one baseline for the ratio.
// Both files again as Claude Code lines (bench/to-claude-code.mjs): the same ratio and RSS targets.
// Last, a folder of 2,000 small sessions scanned with --jobs 1 and --jobs 2, alternating, median
// of 5 (target: --jobs 2 at least 1.6× faster).
// Every measurement is a fresh child process, timed wall-clock from spawn to
// exit (startup included, as a user sees it); peak RSS comes from rss-hook.mjs.
// Units are binary: MiB = 2^20 bytes. Exit 0 whether targets pass or fail;
// exit 1 only if something crashed (or the scanner CLI is missing).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATA_DIR, ensureTranscript, fmtBytes, generateTranscript, GENERATOR_VERSION } from './generate.mjs';
import { ensureClaudeCode } from './to-claude-code.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = 'bin/transcript-doctor.js';
const RUNS = 3;
const JOBS_RUNS = 5; // a folder scan takes about a second: more runs, steadier median
const TARGET_RATIO = 0.8;
const TARGET_REPAIR_RATIO = 0.5;
const TARGET_JOBS_SPEEDUP = 1.6;
const MANY_FILES = 2000;
const MANY_FILE_BYTES = 48 * 1024;
const TARGET_RSS_MIB = 200;
const CHILD_TIMEOUT_MS = 15 * 60_000; // a hung scanner should fail the bench, not block it forever
const MiB = 2 ** 20;

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const baselineOnly = argv.includes('--baseline-only'); // for when the scanner does not exist yet
const [SMALL, LARGE] = quick ? [32 * MiB, 128 * MiB] : [128 * MiB, 1024 * MiB];

class BenchError extends Error {}

if (!baselineOnly && !fs.existsSync(path.join(ROOT, BIN))) {
  console.error(`bench: ${BIN} not found in ${ROOT}.\n` +
    'The scanner CLI must exist (and `npm run build` must have produced dist/) before benchmarking it.\n' +
    'Use `node bench/run.mjs --baseline-only` to exercise just the generator and baseline.');
  process.exit(1);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'td-bench-'));
let childNo = 0;

/** Spawn `node --import ./bench/rss-hook.mjs ...args` in ROOT; wall time + peak RSS. */
function runNode(args) {
  const rssFile = path.join(tmp, `rss-${++childNo}`);
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', './bench/rss-hook.mjs', ...args], {
      cwd: ROOT, env: { ...process.env, BENCH_RSS_FILE: rssFile }, stdio: ['ignore', 'pipe', 'pipe'], timeout: CHILD_TIMEOUT_MS,
    });
    // Keep only the tail of the output: a chatty child must not bloat the bench.
    const out = { stdout: '', stderr: '' };
    for (const k of ['stdout', 'stderr']) child[k].on('data', (d) => { out[k] = (out[k] + d).slice(-64 * 1024); });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      let rssKiB = null;
      try { rssKiB = Number(fs.readFileSync(rssFile, 'utf8')); } catch { /* killed before 'exit' */ }
      resolve({ code, signal, wallMs, rssKiB, ...out });
    });
  });
}

const describe = (r) => `exit ${r.code ?? r.signal}\n${r.stderr.trim().split('\n').slice(-15).join('\n')}`;

async function baseline(file) {
  const r = await runNode(['bench/baseline.mjs', file]);
  if (r.code !== 0) throw new BenchError(`baseline failed on ${file}: ${describe(r)}`);
  return { ...r, ...JSON.parse(r.stdout) };
}

async function scan(file) {
  const report = path.join(tmp, `report-${childNo + 1}.json`);
  const r = await runNode([BIN, 'scan', file, '--reporter', 'json', '--output-file', report]);
  // 0 = clean, 1 = findings; anything else (2, a signal, a crash) is a failure.
  if (r.code !== 0 && r.code !== 1) throw new BenchError(`scanner failed on ${file}: ${describe(r)}`);
  // Node also exits 1 on an uncaught exception, so a missing/bad report means a crash.
  let json;
  try { json = JSON.parse(fs.readFileSync(report, 'utf8')); } catch (e) {
    throw new BenchError(`scanner on ${file} left no valid JSON report (${e.message}); ${describe(r)}`);
  }
  fs.rmSync(report, { force: true }); // reports can be large; only the counts are kept
  const byRule = {};
  for (const f of json.files ?? []) for (const x of f.findings ?? []) byRule[x.rule] = (byRule[x.rule] ?? 0) + 1;
  return { ...r, byRule, summary: json.summary };
}

// Read the file once so the first timed run does not pay for a cold page cache.
async function repair(file) {
  const out = path.join(tmp, `repaired-${childNo + 1}.jsonl`);
  const report = path.join(tmp, `repair-report-${childNo + 1}.json`);
  const r = await runNode([BIN, 'repair', file, '--output', out, '--reporter', 'json', '--output-file', report]);
  if (r.code !== 0 && r.code !== 1) throw new BenchError(`repair failed on ${file}: ${describe(r)}`);
  const json = JSON.parse(fs.readFileSync(report, 'utf8'));
  fs.rmSync(out, { force: true });
  return { ...r, counts: json.files[0].counts, left: json.summary };
}

/** A folder of many small transcripts (cached like the big ones), for `--jobs`. */
async function ensureManyFiles() {
  const dir = path.join(DATA_DIR, `many-${MANY_FILES}x${MANY_FILE_BYTES}-v${GENERATOR_VERSION}`);
  const marker = path.join(dir, '.complete');
  if (!fs.existsSync(marker)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    // Twenty generated sessions, each copied a hundred times: generating is slow, scanning a copy is not.
    const seeds = 20;
    for (let i = 0; i < seeds; i++) await generateTranscript(path.join(dir, `s${String(i).padStart(4, '0')}.jsonl`), MANY_FILE_BYTES, { seed: i + 1 });
    for (let i = seeds; i < MANY_FILES; i++) fs.copyFileSync(path.join(dir, `s${String(i % seeds).padStart(4, '0')}.jsonl`), path.join(dir, `s${String(i).padStart(4, '0')}.jsonl`));
    fs.writeFileSync(marker, '');
  }
  return dir;
}

async function scanFolder(dir, jobs) {
  const report = path.join(tmp, `jobs-${jobs}-${childNo + 1}.json`);
  const r = await runNode([BIN, 'scan', dir, '--jobs', String(jobs), '--reporter', 'json', '--output-file', report]);
  if (r.code !== 0 && r.code !== 1) throw new BenchError(`scan --jobs ${jobs} failed: ${describe(r)}`);
  return { ...r, text: fs.readFileSync(report, 'utf8') };
}

async function warm(file) {
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 * MiB })) void chunk;
}

const mibps = (bytes, ms) => bytes / MiB / (ms / 1000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rssMiB = (r) => (r.rssKiB == null ? null : r.rssKiB / 1024);
const f1 = (x) => (x == null ? 'n/a' : x.toFixed(1));
const line = (label, r, bytes) =>
  `  ${label.padEnd(10)} ${(r.wallMs / 1000).toFixed(2).padStart(7)} s  ${f1(mibps(bytes, r.wallMs)).padStart(7)} MiB/s  peak RSS ${f1(rssMiB(r)).padStart(6)} MiB`;

function printFindings(byRule, meta) {
  const p = meta.problems;
  console.log(`  generator injected: ${p.unansweredToolCalls} unanswered toolCall(s) in ${p.unansweredTurns} turn(s); ` +
    `${p.abortedPartialJsonTurns} aborted turn(s) with partialJson + synthetic result; ${meta.branches} abandoned branch(es)`);
  const rules = Object.entries(byRule).sort((a, b) => b[1] - a[1]);
  if (!rules.length) console.log('  scanner findings: none');
  for (const [rule, n] of rules) console.log(`  ${String(n).padStart(8)}  ${rule}`);
}

async function main() {
  console.log(`transcript-doctor bench${quick ? ' (--quick)' : ''}${baselineOnly ? ' (--baseline-only)' : ''} — node ${process.version}, ${os.cpus().length} CPU(s)`);
  const small = await ensureTranscript(SMALL);
  const large = await ensureTranscript(LARGE);
  const rel = (f) => path.relative(ROOT, f);
  const result = { quick, node: process.version };

  // ---- small file: alternate baseline / scan, median of 3
  const sb = small.meta.bytes;
  console.log(`\n${rel(small.file)} (${fmtBytes(sb)}, ${small.meta.lines} lines)`);
  await warm(small.file);
  const base = [], sc = [];
  for (let i = 0; i < RUNS; i++) {
    base.push(await baseline(rel(small.file)));
    console.log(line(`baseline ${i + 1}`, base[i], sb));
    if (baselineOnly) continue;
    sc.push(await scan(rel(small.file)));
    console.log(line(`scan ${i + 1}`, sc[i], sb) + `  exit ${sc[i].code}`);
  }
  const bMs = median(base.map((r) => r.wallMs));
  result.small = {
    file: rel(small.file), bytes: sb,
    baseline: { medianMs: Math.round(bMs), mibps: mibps(sb, bMs), rssMiB: Math.max(...base.map(rssMiB)), innerMs: median(base.map((r) => r.ms)) },
  };
  console.log(`  baseline median ${f1(mibps(sb, bMs))} MiB/s (parse loop alone: ${f1(mibps(sb, result.small.baseline.innerMs))} MiB/s)`);
  if (!baselineOnly) {
    const sMs = median(sc.map((r) => r.wallMs));
    result.small.scan = { medianMs: Math.round(sMs), mibps: mibps(sb, sMs), rssMiB: Math.max(...sc.map(rssMiB)) };
    result.small.ratio = bMs / sMs; // throughput ratio scan/baseline = inverse time ratio
    result.small.findingsByRule = sc[sc.length - 1].byRule;
    console.log(`  scan median     ${f1(mibps(sb, sMs))} MiB/s → ratio scan/baseline ${result.small.ratio.toFixed(2)}`);
    printFindings(result.small.findingsByRule, small.meta);

    // Repair reads the file twice (plan, then write) and writes it once; judged against the same baseline.
    const rep = [], rbase = [];
    for (let i = 0; i < RUNS; i++) {
      rbase.push(await baseline(rel(small.file)));
      rep.push(await repair(rel(small.file)));
      console.log(line(`repair ${i + 1}`, rep[i], sb) + `  exit ${rep[i].code}`);
    }
    const rbMs = median(rbase.map((r) => r.wallMs));
    const rMs = median(rep.map((r) => r.wallMs));
    result.small.repair = { medianMs: Math.round(rMs), mibps: mibps(sb, rMs), rssMiB: Math.max(...rep.map(rssMiB)), ratio: rbMs / rMs };
    const counts = Object.entries(rep[0].counts).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
    console.log(`  repair median   ${f1(mibps(sb, rMs))} MiB/s → ratio repair/baseline ${result.small.repair.ratio.toFixed(2)} (${counts}; left: ${rep[0].left.errors} errors)`);
  }

  // ---- large file: one scan (peak RSS), one baseline (ratio)
  const lb = large.meta.bytes;
  console.log(`\n${rel(large.file)} (${fmtBytes(lb)}, ${large.meta.lines} lines)`);
  await warm(large.file);
  const lbase = await baseline(rel(large.file));
  console.log(line('baseline', lbase, lb));
  result.large = { file: rel(large.file), bytes: lb, baseline: { ms: Math.round(lbase.wallMs), mibps: mibps(lb, lbase.wallMs), rssMiB: rssMiB(lbase) } };
  if (!baselineOnly) {
    const ls = await scan(rel(large.file));
    console.log(line('scan', ls, lb) + `  exit ${ls.code}`);
    result.large.scan = { ms: Math.round(ls.wallMs), mibps: mibps(lb, ls.wallMs), rssMiB: rssMiB(ls) };
    result.large.ratio = lbase.wallMs / ls.wallMs;
    result.large.findingsByRule = ls.byRule;
    console.log(`  ratio scan/baseline ${result.large.ratio.toFixed(2)}`);
    printFindings(ls.byRule, large.meta);
  }

  // ---- the same conversations as Claude Code lines: small file median of 3, large file once (peak RSS)
  if (!baselineOnly) {
    result.claudeCode = {};
    for (const [key, source, runs] of [['small', small.file, RUNS], ['large', large.file, 1]]) {
      const cc = await ensureClaudeCode(source);
      console.log(`\n${rel(cc.file)} (Claude Code, ${fmtBytes(cc.bytes)}, ${cc.lines} lines)`);
      await warm(cc.file);
      const cbase = [], cscan = [];
      for (let i = 0; i < runs; i++) {
        cbase.push(await baseline(rel(cc.file)));
        cscan.push(await scan(rel(cc.file)));
        console.log(line(`scan ${i + 1}`, cscan[i], cc.bytes) + `  exit ${cscan[i].code}`);
      }
      const cbMs = median(cbase.map((r) => r.wallMs));
      const csMs = median(cscan.map((r) => r.wallMs));
      result.claudeCode[key] = { bytes: cc.bytes, mibps: mibps(cc.bytes, csMs), rssMiB: Math.max(...cscan.map(rssMiB)), ratio: cbMs / csMs, findingsByRule: cscan[0].byRule };
      console.log(`  baseline ${f1(mibps(cc.bytes, cbMs))} MiB/s → ratio scan/baseline ${result.claudeCode[key].ratio.toFixed(2)}; findings ${JSON.stringify(cscan[0].byRule)}`);
    }
  }

  // ---- many small files: --jobs 2 against --jobs 1, alternating, median of 5
  if (!baselineOnly) {
    const dir = await ensureManyFiles();
    const sizes = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl')).map((name) => fs.statSync(path.join(dir, name)).size);
    const total = sizes.reduce((a, b) => a + b, 0);
    // The generator overshoots small targets: say what the files really hold.
    console.log(`\n${rel(dir)} (${MANY_FILES} files, ${fmtBytes(total)} in all, ${fmtBytes(total / sizes.length)} on average)`);
    const one = [], two = [];
    for (let i = 0; i < JOBS_RUNS; i++) {
      one.push(await scanFolder(rel(dir), 1));
      two.push(await scanFolder(rel(dir), 2));
      console.log(`  --jobs 1 ${(one[i].wallMs / 1000).toFixed(2)} s   --jobs 2 ${(two[i].wallMs / 1000).toFixed(2)} s`);
    }
    if (one.some((r) => r.text !== two[0].text)) throw new BenchError('--jobs 1 and --jobs 2 reports differ');
    result.jobs = { files: MANY_FILES, bytes: total, oneMs: Math.round(median(one.map((r) => r.wallMs))), twoMs: Math.round(median(two.map((r) => r.wallMs))) };
    result.jobs.speedup = result.jobs.oneMs / result.jobs.twoMs;
    console.log(`  speed-up with --jobs 2: ${result.jobs.speedup.toFixed(2)}× (identical reports)`);
  }

  // ---- verdict
  if (!baselineOnly) {
    const ratioOk = result.small.ratio >= TARGET_RATIO;
    const rss = result.large.scan.rssMiB;
    const rssOk = rss != null && rss <= TARGET_RSS_MIB;
    const repairOk = result.small.repair.ratio >= TARGET_REPAIR_RATIO;
    const jobsOk = result.jobs.speedup >= TARGET_JOBS_SPEEDUP;
    const ccRatioOk = result.claudeCode.small.ratio >= TARGET_RATIO;
    const ccRss = result.claudeCode.large.rssMiB;
    const ccRssOk = ccRss != null && ccRss <= TARGET_RSS_MIB;
    result.targets = {
      throughputRatio: { target: `>= ${TARGET_RATIO}`, value: result.small.ratio, pass: ratioOk },
      peakRssMiB: { target: `<= ${TARGET_RSS_MIB}`, value: rss, pass: rssOk },
      repairRatio: { target: `>= ${TARGET_REPAIR_RATIO}`, value: result.small.repair.ratio, pass: repairOk },
      jobsSpeedup: { target: `>= ${TARGET_JOBS_SPEEDUP}`, value: result.jobs.speedup, pass: jobsOk },
      claudeCodeThroughputRatio: { target: `>= ${TARGET_RATIO}`, value: result.claudeCode.small.ratio, pass: ccRatioOk },
      claudeCodePeakRssMiB: { target: `<= ${TARGET_RSS_MIB}`, value: ccRss, pass: ccRssOk },
    };
    result.pass = ratioOk && rssOk && repairOk && jobsOk && ccRatioOk && ccRssOk;
    console.log(`\n${ratioOk ? 'PASS' : 'FAIL'}  throughput ratio ${result.small.ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}, ${fmtBytes(sb)} file)`);
    console.log(`${rssOk ? 'PASS' : 'FAIL'}  scan peak RSS ${f1(rss)} MiB (target ≤ ${TARGET_RSS_MIB} MiB, ${fmtBytes(lb)} file)`);
    console.log(`${repairOk ? 'PASS' : 'FAIL'}  repair throughput ratio ${result.small.repair.ratio.toFixed(2)} (target ≥ ${TARGET_REPAIR_RATIO}, ${fmtBytes(sb)} file)`);
    console.log(`${ccRatioOk ? 'PASS' : 'FAIL'}  Claude Code throughput ratio ${result.claudeCode.small.ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}, ${fmtBytes(result.claudeCode.small.bytes)} file)`);
    console.log(`${ccRssOk ? 'PASS' : 'FAIL'}  Claude Code scan peak RSS ${f1(ccRss)} MiB (target ≤ ${TARGET_RSS_MIB} MiB, ${fmtBytes(result.claudeCode.large.bytes)} file)`);
    console.log(`${jobsOk ? 'PASS' : 'FAIL'}  scan --jobs 2 speed-up ${result.jobs.speedup.toFixed(2)}× (target ≥ ${TARGET_JOBS_SPEEDUP}, ${MANY_FILES} files)`);
  }
  // Round for a compact machine-readable last line.
  console.log(JSON.stringify(result, (k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 100) / 100 : v)));
}

try {
  await main();
} catch (e) {
  console.error(`\nbench FAILED: ${e instanceof BenchError ? e.message : e.stack}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
