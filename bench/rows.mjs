// The bench's rows: each runs its children (measure.mjs), prints as it goes and returns its figures.

import fs from 'node:fs';
import path from 'node:path';
import { fmtBytes } from './generate.mjs';
import { BIN, f1, f2, meanCpuMs, median, mibps, rel, ROOT, rssMiB, timeLine, warm, BenchError } from './measure.mjs';

/** Line-length quantiles of a file, in bytes (newline not counted). */
export async function lineSizes(file) {
  const lengths = [];
  let carried = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 << 20 })) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      lengths.push(carried + nl - start);
      carried = 0;
      start = nl + 1;
    }
    carried += chunk.length - start;
  }
  if (carried > 0) lengths.push(carried);
  const sorted = Float64Array.from(lengths).sort();
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p25: q(0.25), p50: q(0.5), p75: q(0.75), p90: q(0.9) };
}

function printFindings(byRule, meta) {
  if (meta?.problems) {
    const p = meta.problems;
    console.log(`  generator injected: ${p.unansweredToolCalls} unanswered toolCall(s) in ${p.unansweredTurns} turn(s); ` +
      `${p.abortedPartialJsonTurns} aborted turn(s) with partialJson + synthetic result; ${meta.branches} abandoned branch(es)`);
  }
  const rules = Object.entries(byRule).sort((a, b) => b[1] - a[1]);
  console.log(`  scanner findings: ${rules.length ? rules.map(([rule, n]) => `${rule} ${n}`).join(', ') : 'none'}`);
}

/**
 * The baseline's mean CPU time (user + system) over the other's: how their work compares, whatever
 * the cores do meanwhile. It moves far less with the host's load than the wall ratio the targets are
 * set on, so a change shows in it sooner; a second thread raises CPU time to lower wall time, so it
 * is no throughput. Null when a child's CPU time is unknown.
 */
function cpuRatio(base, other) {
  const [b, o] = [meanCpuMs(base), meanCpuMs(other)];
  return b == null || !o ? null : b / o;
}

/**
 * Throughput of one file: baseline and scan alternate `runs` times, median wall times → ratio
 * scan/baseline (throughput ratio = inverse time ratio), with the ratio of their CPU times
 * beside it. With `repair`, repair alternates with the baseline the same way.
 */
export async function throughputRow(c, { title, file, bytes, lines, meta, runs, repair = false }) {
  const sizes = await lineSizes(file);
  console.log(`\n${title}: ${rel(file)} (${fmtBytes(bytes)}, ${lines} lines; line bytes p25 ${sizes.p25}, median ${sizes.p50}, p75 ${sizes.p75}, p90 ${sizes.p90})`);
  await warm(file);
  const base = [], scans = [];
  for (let i = 0; i < runs; i++) {
    base.push(await c.baseline(rel(file)));
    console.log(timeLine(`baseline ${i + 1}`, base[i], bytes));
    scans.push(await c.scan(rel(file)));
    console.log(timeLine(`scan ${i + 1}`, scans[i], bytes) + `  exit ${scans[i].code}`);
  }
  const bMs = median(base.map((r) => r.wallMs));
  const sMs = median(scans.map((r) => r.wallMs));
  const row = {
    file: rel(file), bytes, lines, lineSizes: sizes,
    baseline: { medianMs: Math.round(bMs), mibps: mibps(bytes, bMs), parseLoopMibps: mibps(bytes, median(base.map((r) => r.ms))) },
    scan: { medianMs: Math.round(sMs), mibps: mibps(bytes, sMs), rssMiB: Math.max(...scans.map(rssMiB)) },
    ratio: bMs / sMs,
  };
  row.cpuRatio = cpuRatio(base, scans);
  console.log(`  baseline median ${f1(row.baseline.mibps)} MiB/s (parse loop alone ${f1(row.baseline.parseLoopMibps)}); scan median ${f1(row.scan.mibps)} MiB/s → ratio scan/baseline ${f2(row.ratio)} (CPU time ${f2(row.cpuRatio)})`);
  printFindings(scans[0].byRule, meta);
  if (!repair) return row;
  const reps = [], rbase = [];
  for (let i = 0; i < runs; i++) {
    rbase.push(await c.baseline(rel(file)));
    reps.push(await c.repair(rel(file)));
    console.log(timeLine(`repair ${i + 1}`, reps[i], bytes) + `  exit ${reps[i].code}`);
  }
  const rbMs = median(rbase.map((r) => r.wallMs));
  const rMs = median(reps.map((r) => r.wallMs));
  row.repair = { medianMs: Math.round(rMs), mibps: mibps(bytes, rMs), rssMiB: Math.max(...reps.map(rssMiB)), ratio: rbMs / rMs, cpuRatio: cpuRatio(rbase, reps) };
  const counts = Object.entries(reps[0].counts).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`  repair median ${f1(row.repair.mibps)} MiB/s → ratio repair/baseline ${f2(row.repair.ratio)} (CPU time ${f2(row.repair.cpuRatio)}; ${counts}; left: ${reps[0].left.errors} errors)`);
  return row;
}

/** `slim` at its default target against the parse baseline, alternating, and its peak RSS. */
export async function slimRow(c, { title, file, bytes, runs }) {
  console.log(`\n${title}: ${rel(file)} (${fmtBytes(bytes)})`);
  await warm(file);
  const base = [], slims = [];
  for (let i = 0; i < runs; i++) {
    base.push(await c.baseline(rel(file)));
    slims.push(await c.slim(rel(file)));
    console.log(timeLine(`slim ${i + 1}`, slims[i], bytes) + `  exit ${slims[i].code}`);
  }
  const bMs = median(base.map((r) => r.wallMs));
  const sMs = median(slims.map((r) => r.wallMs));
  const report = slims[0].slim;
  const row = { file: rel(file), bytes, medianMs: Math.round(sMs), mibps: mibps(bytes, sMs), rssMiB: Math.max(...slims.map(rssMiB)), ratio: bMs / sMs, cpuRatio: cpuRatio(base, slims) };
  if (report !== undefined) row.slim = { before: report.before, after: report.after, fits: report.fits, strategies: report.strategies.map(({ strategy, parts, savedBytes }) => ({ strategy, parts, savedBytes })) };
  const did = report?.strategies.map((s) => `${s.strategy} ${s.parts}`).join(', ') ?? 'no report';
  console.log(`  slim median ${f1(row.mibps)} MiB/s → ratio slim/baseline ${f2(row.ratio)} (CPU time ${f2(row.cpuRatio)}; peak RSS ${f1(row.rssMiB)} MiB; ${did}${report?.fits ? '; fits' : ''})`);
  return row;
}

/** A large file: one baseline and one scan, for the ratio and the scan's peak RSS. */
export async function largeRow(c, { title, file, bytes, lines, meta }) {
  console.log(`\n${title}: ${rel(file)} (${fmtBytes(bytes)}, ${lines} lines)`);
  await warm(file);
  const base = await c.baseline(rel(file));
  console.log(timeLine('baseline', base, bytes));
  const scan = await c.scan(rel(file));
  console.log(timeLine('scan', scan, bytes) + `  exit ${scan.code}`);
  const row = { file: rel(file), bytes, lines, baselineMibps: mibps(bytes, base.wallMs), scanMibps: mibps(bytes, scan.wallMs), rssMiB: rssMiB(scan), ratio: base.wallMs / scan.wallMs };
  console.log(`  ratio scan/baseline ${f2(row.ratio)}, scan peak RSS ${f1(row.rssMiB)} MiB`);
  printFindings(scan.byRule, meta);
  return row;
}

/** Heap a loaded transcript keeps per entry (retained.mjs). */
export async function retainedRow(c, { title, file }) {
  const r = await c.retained(rel(file));
  console.log(`  ${title}: ${r.entries} entries keep ${fmtBytes(r.heapBytes)} of heap → ${f1(r.bytesPerEntry)} bytes per entry`);
  return r;
}

/**
 * A ~/.claude/projects-shaped folder: the baseline over every file, then, alternating `runs`
 * times, `scan --jobs 1`, `scan --jobs 2`, and two `--jobs 1` processes started together, each
 * scanning half of the projects. --jobs 2 is judged against that split: both use two cores, and
 * the split has no coordination cost at all.
 */
export async function projectsRow(c, { projects, runs }) {
  const { dir, files, bytes, halves } = projects;
  console.log(`\nmany files: ${rel(dir)} (${files} Claude Code sessions in ${halves[0].projects.length + halves[1].projects.length} projects, ${fmtBytes(bytes)}, ${fmtBytes(bytes / files)} on average)`);
  const base = await c.baseline(rel(dir));
  console.log(`  baseline     ${(base.wallMs / 1000).toFixed(2).padStart(7)} s  ${f1(mibps(bytes, base.wallMs)).padStart(7)} MiB/s  (${base.files} files)`);
  const half = (h) => h.projects.map((project) => rel(path.join(dir, project)));
  const one = [], two = [], split = [];
  for (let i = 0; i < runs; i++) {
    one.push(await c.scan(rel(dir), ['--jobs', '1']));
    two.push(await c.scan(rel(dir), ['--jobs', '2']));
    const t0 = performance.now();
    const parts = await Promise.all(halves.map((h) => c.scan(half(h), ['--jobs', '1'])));
    split.push({ wallMs: performance.now() - t0, parts });
    console.log(`  --jobs 1 ${(one[i].wallMs / 1000).toFixed(2)} s   --jobs 2 ${(two[i].wallMs / 1000).toFixed(2)} s   two processes on halves ${(split[i].wallMs / 1000).toFixed(2)} s ` +
      `(${parts.map((p) => (p.wallMs / 1000).toFixed(2)).join(' s + ')} s)`);
  }
  if (one.some((r) => r.text !== two[0].text) || two.some((r) => r.text !== two[0].text)) throw new BenchError('--jobs 1 and --jobs 2 reports differ');
  const scanned = split[0].parts.reduce((sum, part) => sum + part.summary.files, 0);
  if (scanned !== files || one[0].summary.files !== files) throw new BenchError(`scanned ${one[0].summary.files} files (halves: ${scanned}), expected ${files}`);
  const oneMs = median(one.map((r) => r.wallMs));
  const twoMs = median(two.map((r) => r.wallMs));
  const splitMs = median(split.map((r) => r.wallMs));
  const row = {
    dir: rel(dir), files, bytes, baselineMibps: mibps(bytes, base.wallMs),
    one: { ms: Math.round(oneMs), mibps: mibps(bytes, oneMs), filesPerSec: files / (oneMs / 1000), rssMiB: Math.max(...one.map(rssMiB)) },
    two: { ms: Math.round(twoMs), mibps: mibps(bytes, twoMs), filesPerSec: files / (twoMs / 1000), rssMiB: Math.max(...two.map(rssMiB)) },
    split: { ms: Math.round(splitMs) },
    ratio: base.wallMs / oneMs,
    jobsSpeedup: oneMs / twoMs,
    splitSpeedup: oneMs / splitMs,
  };
  row.jobsVsSplit = row.jobsSpeedup / row.splitSpeedup;
  console.log(`  --jobs 1: ${f1(row.one.mibps)} MiB/s, ${Math.round(row.one.filesPerSec)} files/s → ratio scan/baseline ${f2(row.ratio)}; --jobs 2: ${f1(row.two.mibps)} MiB/s, ${Math.round(row.two.filesPerSec)} files/s`);
  console.log(`  speed-up over --jobs 1: --jobs 2 ${f2(row.jobsSpeedup)}×, two processes on halves ${f2(row.splitSpeedup)}× → --jobs 2 reaches ${f2(row.jobsVsSplit)} of the split (identical reports)`);
  return row;
}

/** `explain` from the error text to the file, `runs` times (page cache warm after the first); median wall time. */
export async function explainRow(c, { home, runs, target: limit }) {
  const { dir, files, bytes, target } = home;
  const expected = path.join(path.dirname(path.dirname(dir)), target.file);
  console.log(`\nexplain: ${rel(dir)} (${files} pi sessions, ${fmtBytes(bytes)}); the error's session is the oldest with an unanswered call`);
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const r = await c.runNode([BIN, 'explain', target.error, rel(dir), '--reporter', 'json']);
    let session;
    try {
      session = JSON.parse(r.stdout).session;
    } catch {
      throw new BenchError(`explain printed no JSON (exit ${r.code}): ${r.stderr.trim().slice(-2000)}`);
    }
    if (r.code !== 0 || path.resolve(ROOT, session.path) !== expected || session.line !== target.line) {
      throw new BenchError(`explain found ${session?.path}:${session?.line} (exit ${r.code}), expected ${expected}:${target.line}`);
    }
    // The first run reads a cold folder; the rows that follow measure what a user sees on a machine in use.
    console.log(`  ${i === 0 ? 'warm-up' : `run ${i}`}  ${(r.wallMs / 1000).toFixed(2).padStart(7)} s  → ${rel(expected)}:${session.line}`);
    if (i > 0) times.push(r.wallMs);
  }
  const row = { dir: rel(dir), files, bytes, seconds: median(times) / 1000, target: limit };
  console.log(`  median ${row.seconds.toFixed(2)} s to find the session (target ≤ ${limit} s)`);
  return row;
}
