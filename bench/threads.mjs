// What the second thread of a large file's load buys, per headline file:
//   node bench/threads.mjs [runs] [--requests] [file...]   (default: 7 runs of the six headline files)
// Run after `npm run build`. For each file, alternating, `runs` scans with one thread
// (TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES past the file's size) and with two (as the CLI decides):
// the median wall time of each, and the mean CPU time (user + system) and minor page faults of a
// run, which move far less with the load of a shared machine than wall time does. On two cores the
// second thread competes with V8's compiler and collector threads, which a one-thread scan already
// keeps busy on the other core; CPU added is what the second isolate's own compiling, start and
// memory cost. --requests adds the request / dataset file (100,000 conversations).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { headlineFiles } from './headline-files.mjs';
import { BIN, ROOT, childrenUsage, median } from './measure.mjs';
import { ensureRequests } from './requests.mjs';

const ONE_THREAD = { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(Number.MAX_SAFE_INTEGER) };

/** One scan: wall seconds, CPU seconds and minor faults of the child; findings (exit 1) are an answer. */
function scan(file, env) {
  const before = childrenUsage();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, 'scan', file, '--format', 'json'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0 && r.status !== 1) throw new Error(`scan ${file} exited ${r.status ?? r.signal}: ${String(r.stderr).slice(0, 500)}`);
  const after = childrenUsage();
  return { wall, cpu: after === null ? NaN : (after.cpuMs - before.cpuMs) / 1000, faults: after === null ? NaN : after.minorFaults - before.minorFaults };
}

const args = process.argv.slice(2);
const runs = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 7;
const requests = args.includes('--requests');
const named = args.filter((arg) => arg !== '--requests');
const files = named.length > 0 ? named : await headlineFiles();
if (requests) files.push((await ensureRequests(100_000)).file);

const mean = (xs) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
console.log(`${runs} runs each, alternating\nfile | one thread: wall s, CPU s, faults | two threads: wall s, CPU s, faults | speed-up | CPU added`);
for (const file of files) {
  const one = [];
  const two = [];
  for (let i = 0; i < runs; i++) {
    one.push(scan(file, ONE_THREAD));
    two.push(scan(file, {}));
  }
  const sum = (xs) => ({ wall: median(xs.map((x) => x.wall)), cpu: mean(xs.map((x) => x.cpu)), faults: Math.round(mean(xs.map((x) => x.faults))) });
  const [a, b] = [sum(one), sum(two)];
  const cells = (x) => `${x.wall.toFixed(2)}, ${x.cpu.toFixed(2)}, ${x.faults}`;
  console.log(`${path.basename(file)} | ${cells(a)} | ${cells(b)} | ${(a.wall / b.wall).toFixed(2)} | ${(b.cpu - a.cpu).toFixed(2)} s`);
}
