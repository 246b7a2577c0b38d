// How far scan could get above the parse baseline if parsing cost nothing, and how much of the
// machine V8's optimising compiler takes meanwhile:
//   node bench/ceiling.mjs [runs] [file...]   (default: 3 runs of the pi, Claude Code and Codex headline files)
// Run after `npm run build`. For each file, alternating, the median of `runs` of:
//   baseline   bench/baseline.mjs (read, decode, JSON.parse each line)
//   scan       the CLI's scan, as the bench runs it (two threads)
//   twice      the same build with every line decoded and parsed a second time, the copy thrown
//              away: the difference to scan is what decoding and parsing cost in place, with
//              their collections, on a machine this busy
//   bound      baseline / (scan − (twice − scan)): the ratio scan would have if decoding and
//              parsing cost nothing, every other step as it is; a faster parser of any kind
//              (WebAssembly, native) can at most reach it
//   compile    milliseconds of TurboFan compiles (--trace-opt), one thread and two: the work of
//              V8's background compiler, which shares the two cores with the two threads
// The two builds run from copies of bin/ and dist/bundle/ without the code cache, so both start alike.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { headlineFiles } from './headline-files.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The line parse in the bundles (TranscriptBuilder.read); the script stops if the build no longer has it. */
const PARSE = 'value=JSON.parse(lineSource)';

/** A copy of the built CLI whose bundles have `parse` in place of PARSE; returns its bin script. */
function copyBuild(name, parse) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `td-ceiling-${name}-`));
  fs.cpSync(path.join(ROOT, 'bin'), path.join(dir, 'bin'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'dist', 'bundle'), path.join(dir, 'dist', 'bundle'), { recursive: true, filter: (file) => !file.endsWith('.v8cache') });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  for (const bundle of ['cli.cjs', 'load-worker.cjs']) {
    const file = path.join(dir, 'dist', 'bundle', bundle);
    const source = fs.readFileSync(file, 'utf8');
    if (!source.includes(PARSE)) throw new Error(`${bundle} has no "${PARSE}": update bench/ceiling.mjs to the build`);
    fs.writeFileSync(file, source.replace(PARSE, parse));
  }
  return { dir, bin: path.join(dir, 'bin', 'transcript-doctor.js') };
}

/** Runs node with `args`; a scan may exit 1 (it found problems), anything else stops the script. */
function run(args, env = {}) {
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 30 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return r.stdout;
}

function wall(args) {
  const t0 = process.hrtime.bigint();
  run(args);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** Milliseconds of TurboFan compiles in one scan: the three phases --trace-opt gives each compile, summed. */
function compileMs(bin, file, env) {
  const out = run(['--trace-opt', bin, 'scan', file], env);
  let ms = 0;
  for (const match of out.matchAll(/completed compiling .*took ([\d.]+), ([\d.]+), ([\d.]+) ms/g)) ms += Number(match[1]) + Number(match[2]) + Number(match[3]);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ONE_THREAD = { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(Number.MAX_SAFE_INTEGER) };

const runs = Number(process.argv[2] ?? 3);
const files = process.argv.length > 3 ? process.argv.slice(3) : (await headlineFiles()).slice(0, 3);
const once = copyBuild('once', `${PARSE};globalThis.__parsedTwice=0`);
const twice = copyBuild('twice', `${PARSE};globalThis.__parsedTwice=JSON.parse(lineSource)`);
try {
  console.log('file | baseline s | scan s (ratio) | twice s | decode + parse s | bound | compile ms, one thread | two threads');
  for (const file of files) {
    // Both builds must report the same, or the second parse changed what is measured.
    if (run([once.bin, 'scan', file, '--format', 'json']) !== run([twice.bin, 'scan', file, '--format', 'json'])) throw new Error(`the build that parses twice reports ${file} otherwise`);
    const t = { baseline: [], scan: [], twice: [] };
    for (let i = 0; i < runs; i++) {
      t.baseline.push(wall([path.join(ROOT, 'bench', 'baseline.mjs'), file]));
      t.scan.push(wall([once.bin, 'scan', file]));
      t.twice.push(wall([twice.bin, 'scan', file]));
    }
    const [baseline, scan, doubled] = [t.baseline, t.scan, t.twice].map(median);
    const parse = doubled - scan;
    const compile = [ONE_THREAD, {}].map((env) => median(Array.from({ length: runs }, () => compileMs(once.bin, file, env))).toFixed(0));
    console.log(`${path.basename(file)} | ${baseline.toFixed(2)} | ${scan.toFixed(2)} (${(baseline / scan).toFixed(2)}) | ${doubled.toFixed(2)} | ${parse.toFixed(2)} | ${(baseline / (scan - parse)).toFixed(2)} | ${compile.join(' | ')}`);
  }
} finally {
  for (const build of [once, twice]) fs.rmSync(build.dir, { recursive: true, force: true });
}
