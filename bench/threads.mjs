// What the second thread of a large file's load buys, per headline file:
//   node bench/threads.mjs [runs] [--requests] [file...]   (default: 7 runs of the six headline files)
// Run after `npm run build`. For each file, alternating, `runs` scans with one thread
// (TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES past the file's size) and with two (as the CLI decides):
// the median wall time of each, and the mean CPU time (user + system) and minor page faults of a
// run, which move far less with the load of a shared machine than wall time does. On two cores the
// second thread competes with V8's compiler and collector threads, which a one-thread scan already
// keeps busy on the other core; CPU added is what the second isolate's own compiling, start and
// memory cost. --requests adds the request / dataset file (100,000 conversations).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { headlineFiles } from './headline-files.mjs';
import { BIN, childRunner, mean, median } from './measure.mjs';
import { ensureRequests } from './requests.mjs';

const ONE_THREAD = { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(Number.MAX_SAFE_INTEGER) };

/** One scan: wall seconds, CPU seconds and minor faults of the child; findings (exit 1) are an answer. */
async function scan(c, file, env) {
  const r = await c.runNode([BIN, 'scan', file, '--no-cache', '--format', 'json'], { env });
  if (r.code !== 0 && r.code !== 1) throw new Error(`scan ${file} exited ${r.code ?? r.signal}: ${r.stderr.slice(0, 500)}`);
  return { wall: r.wallMs / 1000, cpu: r.cpuMs == null ? NaN : r.cpuMs / 1000, faults: r.faults ?? NaN };
}

/** The file's row of the table: `runs` scans of each kind, alternating. */
async function row(c, file, runs) {
  const one = [];
  const two = [];
  for (let i = 0; i < runs; i++) {
    one.push(await scan(c, file, ONE_THREAD));
    two.push(await scan(c, file, {}));
  }
  const sum = (xs) => ({ wall: median(xs.map((x) => x.wall)), cpu: mean(xs.map((x) => x.cpu)), faults: Math.round(mean(xs.map((x) => x.faults))) });
  const [a, b] = [sum(one), sum(two)];
  const cells = (x) => `${x.wall.toFixed(2)}, ${x.cpu.toFixed(2)}, ${x.faults}`;
  return `${path.basename(file)} | ${cells(a)} | ${cells(b)} | ${(a.wall / b.wall).toFixed(2)} | ${(b.cpu - a.cpu).toFixed(2)} s`;
}

const args = process.argv.slice(2);
const runs = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 7;
const named = args.filter((arg) => arg !== '--requests');
const files = named.length > 0 ? named : await headlineFiles();
if (args.includes('--requests')) files.push((await ensureRequests(100_000)).file);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'td-threads-'));
try {
  const c = childRunner(tmp);
  console.log(`${runs} runs each, alternating\nfile | one thread: wall s, CPU s, faults | two threads: wall s, CPU s, faults | speed-up | CPU added`);
  for (const file of files) console.log(await row(c, file, runs));
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
