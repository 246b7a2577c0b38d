// Child processes the bench times: the parse baseline and the CLI's scan and repair, each a fresh
// `node` timed wall-clock from spawn to exit (start-up included, as a user sees it), with its
// peak RSS from rss-hook.mjs and its CPU time (user + system), which moves far less with the load
// of a shared machine than wall time. Also the formatting helpers every row shares.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = 'bin/transcript-doctor.js';
export const MiB = 2 ** 20;
const CHILD_TIMEOUT_MS = 15 * 60_000; // a hung scanner should fail the bench, not block it forever

export class BenchError extends Error {}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/**
 * What this process's reaped children used: CPU time in ms and minor page faults; null where
 * /proc is missing. Fields after the parenthesised command name: cminflt is the 11th of the
 * line, cutime and cstime the 16th and 17th.
 */
export function childrenUsage() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { cpuMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS, minorFaults: Number(fields[8]) };
  } catch {
    return null;
  }
}

export const mibps = (bytes, ms) => bytes / MiB / (ms / 1000);
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const mean = (xs) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
/** The mean CPU time of runs (runNode's or startup's), null when any run's is unknown. */
export const meanCpuMs = (runs) => (runs.some((r) => r.cpuMs == null) ? null : mean(runs.map((r) => r.cpuMs)));
export const rssMiB = (r) => (r.rssKiB == null ? null : r.rssKiB / 1024);
export const f1 = (x) => (x == null ? 'n/a' : x.toFixed(1));
export const f2 = (x) => (x == null ? 'n/a' : x.toFixed(2));
export const rel = (f) => path.relative(ROOT, f);
export const timeLine = (label, r, bytes) =>
  `  ${label.padEnd(12)} ${(r.wallMs / 1000).toFixed(2).padStart(7)} s  ${f1(mibps(bytes, r.wallMs)).padStart(7)} MiB/s  peak RSS ${f1(rssMiB(r)).padStart(6)} MiB  CPU ${r.cpuMs == null ? 'n/a' : (r.cpuMs / 1000).toFixed(2)} s`;
const describe = (r) => `exit ${r.code ?? r.signal}\n${r.stderr.trim().split('\n').slice(-15).join('\n')}`;

/** Runs children with their scratch files in tmp. */
export function childRunner(tmp) {
  let childNo = 0;

  // A child's CPU time is what the reaped children's grew by while it ran: known only for one that ran alone.
  let running = 0;
  let started = 0;

  /**
   * Spawn `node --import ./bench/rss-hook.mjs ...args` in ROOT, with `env` added to this process's;
   * wall time, CPU time and minor page faults (null beside another child), and peak RSS.
   */
  function runNode(args, { nodeArgs = [], env = {} } = {}) {
    const rssFile = path.join(tmp, `rss-${++childNo}`);
    return new Promise((resolve, reject) => {
      const before = running === 0 ? childrenUsage() : null;
      const number = ++started;
      running += 1;
      const t0 = process.hrtime.bigint();
      const child = spawn(process.execPath, [...nodeArgs, '--import', './bench/rss-hook.mjs', ...args], {
        cwd: ROOT, env: { ...process.env, ...env, BENCH_RSS_FILE: rssFile }, stdio: ['ignore', 'pipe', 'pipe'], timeout: CHILD_TIMEOUT_MS,
      });
      // Keep only the tail of the output: a chatty child must not bloat the bench.
      const out = { stdout: '', stderr: '' };
      for (const k of ['stdout', 'stderr']) child[k].on('data', (d) => { out[k] = (out[k] + d).slice(-64 * 1024); });
      child.on('error', reject);
      child.on('close', (code, signal) => {
        const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
        running -= 1;
        const after = before === null || started !== number ? null : childrenUsage();
        const [cpuMs, faults] = before === null || after === null ? [null, null] : [after.cpuMs - before.cpuMs, after.minorFaults - before.minorFaults];
        let rssKiB = null;
        try { rssKiB = Number(fs.readFileSync(rssFile, 'utf8')); } catch { /* killed before 'exit' */ }
        resolve({ code, signal, wallMs, cpuMs, faults, rssKiB, ...out });
      });
    });
  }

  async function baseline(...files) {
    const r = await runNode(['bench/baseline.mjs', ...files]);
    if (r.code !== 0) throw new BenchError(`baseline failed on ${files.join(' ')}: ${describe(r)}`);
    return { ...r, ...JSON.parse(r.stdout) };
  }

  /**
   * `scan` of files or folders with a JSON report; returns findings by rule and the report's text.
   * Cold, without the scan cache, unless `extra` names a cache folder (bench/cache.mjs's warm rows).
   */
  async function scan(inputs, extra = []) {
    const report = path.join(tmp, `report-${childNo + 1}.json`);
    const cache = extra.includes('--cache-dir') || extra.includes('--no-cache') ? [] : ['--no-cache'];
    const r = await runNode([BIN, 'scan', ...[inputs].flat(), ...extra, ...cache, '--reporter', 'json', '--output-file', report]);
    // 0 = clean, 1 = findings; anything else (2, a signal, a crash) is a failure.
    if (r.code !== 0 && r.code !== 1) throw new BenchError(`scanner failed on ${inputs}: ${describe(r)}`);
    // Node also exits 1 on an uncaught exception, so a missing/bad report means a crash.
    let text, json;
    try {
      text = fs.readFileSync(report, 'utf8');
      json = JSON.parse(text);
    } catch (e) {
      throw new BenchError(`scanner on ${inputs} left no valid JSON report (${e.message}); ${describe(r)}`);
    }
    fs.rmSync(report, { force: true }); // reports can be large; only the counts are kept
    const byRule = {};
    for (const f of json.files ?? []) for (const x of f.findings ?? []) byRule[x.rule] = (byRule[x.rule] ?? 0) + 1;
    return { ...r, byRule, summary: json.summary, text };
  }

  /** Repair reads the file twice (plan, then write) and writes it once. */
  async function repair(file) {
    const out = path.join(tmp, `repaired-${childNo + 1}.jsonl`);
    const report = path.join(tmp, `repair-report-${childNo + 1}.json`);
    const r = await runNode([BIN, 'repair', file, '--out', out, '--reporter', 'json', '--output-file', report]);
    if (r.code !== 0 && r.code !== 1) throw new BenchError(`repair failed on ${file}: ${describe(r)}`);
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    fs.rmSync(out, { force: true });
    fs.rmSync(report, { force: true });
    return { ...r, counts: json.files[0].counts, left: json.summary };
  }

  /** Slim reads the file, then the lines it slims, and writes it once; more passes when the first falls short of the target. */
  async function slim(file) {
    const out = path.join(tmp, `slimmed-${childNo + 1}.jsonl`);
    const report = path.join(tmp, `slim-report-${childNo + 1}.json`);
    const r = await runNode([BIN, 'slim', file, '--out', out, '--reporter', 'json', '--output-file', report]);
    if (r.code !== 0 && r.code !== 1) throw new BenchError(`slim failed on ${file}: ${describe(r)}`);
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    fs.rmSync(out, { force: true });
    fs.rmSync(report, { force: true });
    return { ...r, slim: json.files[0].slim };
  }

  /** Heap kept per entry by a loaded transcript (retained.mjs, in a child with --expose-gc). */
  async function retained(file) {
    const r = await runNode(['bench/retained.mjs', file], { nodeArgs: ['--expose-gc'] });
    if (r.code !== 0) throw new BenchError(`retained-size child failed on ${file}: ${describe(r)}`);
    return JSON.parse(r.stdout);
  }

  return { runNode, baseline, scan, repair, slim, retained };
}

/** Read the file once so the first timed run does not pay for a cold page cache. */
export async function warm(file) {
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 * MiB })) void chunk;
}
