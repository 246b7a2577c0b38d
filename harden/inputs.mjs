// Reliability: inputs that used to hang, loop or eat memory (issue 12, item 4).
//
//   node harden/inputs.mjs        (after `npm run build`)
//
// Runs the built CLI on a table of hostile inputs: folders whose links loop, a FIFO nobody
// writes to, a socket, /dev/null and /dev/zero as paths, a folder where a file is expected,
// and lines with no end (a stream of zeros on standard input, a huge sparse file). Every run
// has a timeout; a run that hits it is a hang. Prints one line per item and exits 1 if any
// item fails. Peak RSS comes from /usr/bin/time -v when present, else from bench/rss-hook.mjs.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'transcript-doctor.js');
const HEALTHY = path.join(ROOT, 'fixtures', 'pi', 'healthy.jsonl');
const RSS_HOOK = path.join(ROOT, 'bench', 'rss-hook.mjs');
const MiB = 2 ** 20;
const GiB = 2 ** 30;
const QUICK_MS = 20_000;
const BIG_MS = 90_000;
/** The line cap is V8's longest string (~512 MiB); what a run may hold beyond that is the CLI's own. */
const RSS_LIMIT_MIB = 800;
const FIFO_HINT = 'a FIFO, not a regular file (to read a pipe, send it to standard input and pass -)';

if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) {
  console.error('harden inputs: dist/ is missing; run `npm run build` first');
  process.exit(1);
}

const TIME = ['/usr/bin/time', '/bin/time'].find((candidate) => {
  try {
    execFileSync(candidate, ['-v', '-o', os.devNull, 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'td-harden-inputs-')));
const at = (...parts) => path.join(tmp, ...parts);
const healthy = (file) => fs.copyFileSync(HEALTHY, file);
const mkfifo = (file) => execFileSync('mkfifo', [file]);

/** Runs the CLI with a timeout, in its own process group so a hung run is ended with everything it started. */
function run(args, { stdinBytes = 0, timeoutMs = QUICK_MS, env = {} } = {}) {
  const rssFile = at(`rss-${Math.random().toString(36).slice(2)}`);
  const node = [process.execPath, BIN, ...args];
  const [command, ...argv] = TIME ? [TIME, '-v', '-o', rssFile, ...node] : [process.execPath, '--import', RSS_HOOK, BIN, ...args];
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, argv, {
      cwd: tmp,
      detached: true,
      env: { ...process.env, CI: '1', NO_COLOR: '1', BENCH_RSS_FILE: rssFile, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '' };
    for (const name of ['stdout', 'stderr']) child[name].on('data', (data) => (out[name] = (out[name] + data).slice(-64 * 1024)));
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.stdin.on('error', () => undefined); // the CLI may stop reading early; that is its right
    feed(child.stdin, stdinBytes);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, hung, ...out, rssMiB: peakRss(rssFile), seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    });
  });
}

/** Writes `bytes` zero bytes with no line ending, minding backpressure, then ends the stream. */
function feed(stdin, bytes) {
  const zeros = Buffer.alloc(MiB);
  let left = bytes;
  const more = () => {
    while (left > 0) {
      const piece = left >= zeros.length ? zeros : zeros.subarray(0, left);
      left -= piece.length;
      if (!stdin.write(piece)) return stdin.once('drain', more);
    }
    stdin.end();
  };
  more();
}

function peakRss(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const kib = TIME ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(text)?.[1]) : Number(text);
  return Number.isFinite(kib) ? Math.round(kib / 1024) : undefined;
}

// ── the table ───────────────────────────────────────────────────────────────

function setUp() {
  const here = at('loop-self');
  fs.mkdirSync(here);
  healthy(path.join(here, 'a.jsonl'));
  fs.symlinkSync('.', path.join(here, 'here'));

  const both = at('loop-self-parent');
  fs.mkdirSync(both);
  healthy(path.join(both, 'a.jsonl'));
  fs.symlinkSync('.', path.join(both, 'here'));
  fs.symlinkSync('..', path.join(both, 'up'));

  const cycle = at('cycle');
  fs.mkdirSync(path.join(cycle, 'a'), { recursive: true });
  fs.mkdirSync(path.join(cycle, 'b'));
  healthy(path.join(cycle, 'a', 'x.jsonl'));
  healthy(path.join(cycle, 'b', 'y.jsonl'));
  fs.symlinkSync('../b', path.join(cycle, 'a', 'to-b'));
  fs.symlinkSync('../a', path.join(cycle, 'b', 'to-a'));

  mkfifo(at('pipe.jsonl'));
  const withFifo = at('with-fifo');
  fs.mkdirSync(withFifo);
  healthy(path.join(withFifo, 'ok.jsonl'));
  mkfifo(path.join(withFifo, 'pipe.jsonl'));

  fs.mkdirSync(at('folder.jsonl'));
  fs.mkdirSync(at('out-folder'));
  healthy(at('healthy.jsonl'));

  const sparse = at('no-newline.jsonl');
  fs.writeFileSync(sparse, '');
  fs.truncateSync(sparse, GiB); // zeros without a single line ending, without using the disk
}

const lines = (text) => text.split('\n').filter(Boolean);
const files = (result) => JSON.parse(result.stdout).files.map((file) => file.path);
const fifoRefused = (file) => [`transcript-doctor: nothing to read: ${file} is ${FIFO_HINT}`];
const deviceRefused = (file) => [`transcript-doctor: nothing to read: ${file} is a character device, not a regular file`];
const judge = ['--model', 'openai/judge', '--base-url', 'http://127.0.0.1:9/v1', '--no-cache'];

/** Each case: what to run, the exit code it must give, the stderr lines it must print, and anything else to check. */
const cases = [
  { name: 'folder linking to itself (.)', args: ['scan', 'loop-self', '-r', 'json'], code: 0,
    stderr: [`transcript-doctor: not following loop-self/here: it links back to a folder that holds it`],
    check: (r) => same(files(r), ['loop-self/a.jsonl']) },
  { name: 'folder linking to itself and its parent (. and ..)', args: ['scan', 'loop-self-parent', '-r', 'json'], code: 0,
    stderr: ['here', 'up'].map((link) => `transcript-doctor: not following loop-self-parent/${link}: it links back to a folder that holds it`),
    check: (r) => same(files(r), ['loop-self-parent/a.jsonl']) },
  { name: 'glob through the same loops', args: ['scan', 'loop-self-parent/**/*.jsonl', '-r', 'json'], code: 0,
    stderr: ['here', 'up'].map((link) => `transcript-doctor: not following loop-self-parent/${link}: it links back to a folder that holds it`),
    check: (r) => same(files(r), ['loop-self-parent/a.jsonl']) },
  { name: 'link cycle between two folders', args: ['scan', 'cycle', '-r', 'json'], code: 0, stderr: [],
    check: (r) => same(files(r), ['cycle/a/x.jsonl', 'cycle/b/y.jsonl']) },
  { name: 'link cycle entered from one side', args: ['repair', '--dry-run', 'cycle/a', '-r', 'json'], code: 0, stderr: [],
    check: (r) => same(files(r), ['cycle/a/to-b/y.jsonl', 'cycle/a/x.jsonl']) },
  ...['scan', 'repair', 'canonicalize', 'canonicalize --check'].map((command) => ({
    name: `${command}: FIFO with no writer`, args: [...command.split(' '), 'pipe.jsonl'], code: 2, stderr: fifoRefused('pipe.jsonl'),
  })),
  { name: 'verify: FIFO with no writer', args: ['verify', ...judge, 'pipe.jsonl'], env: { OPENAI_API_KEY: 'unused' }, code: 2, stderr: fifoRefused('pipe.jsonl') },
  { name: 'scan: FIFO inside a folder', args: ['scan', 'with-fifo', '-r', 'json'], code: 0,
    stderr: [`transcript-doctor: skipped with-fifo/pipe.jsonl: ${FIFO_HINT}`], check: (r) => same(files(r), ['with-fifo/ok.jsonl']) },
  { name: 'repair --in-place: FIFO inside a folder', args: ['repair', '--in-place', 'with-fifo'], code: 0,
    stderr: [`transcript-doctor: skipped with-fifo/pipe.jsonl: ${FIFO_HINT}`] },
  { name: 'scan /dev/null', args: ['scan', '/dev/null'], code: 2, stderr: deviceRefused('/dev/null') },
  { name: 'repair /dev/null', args: ['repair', '/dev/null'], code: 2, stderr: deviceRefused('/dev/null') },
  { name: 'scan /dev/zero', args: ['scan', '/dev/zero'], code: 2, stderr: deviceRefused('/dev/zero'), rss: true },
  { name: 'repair /dev/zero', args: ['repair', '/dev/zero'], code: 2, stderr: deviceRefused('/dev/zero'), rss: true },
  { name: 'scan a socket', args: ['scan', 'socket.jsonl'], code: 2, stderr: ['transcript-doctor: nothing to read: socket.jsonl is a socket, not a regular file'] },
  { name: 'scan a folder named like a transcript', args: ['scan', 'folder.jsonl'], code: 2, stderr: ['transcript-doctor: no *.jsonl files in directory folder.jsonl'] },
  { name: 'repair --out an existing folder puts the output in it, as cp does', args: ['repair', 'healthy.jsonl', '--out', 'out-folder'], code: 0, stderr: [],
    check: () => (fs.readFileSync(at('out-folder/healthy.jsonl')).equals(fs.readFileSync(at('healthy.jsonl'))) ? undefined : 'not written into the folder') },
  { name: 'scan -o an existing folder', args: ['scan', 'healthy.jsonl', '-o', 'out-folder'], code: 2, stderr: ['transcript-doctor: cannot write out-folder: is a directory'] },
  { name: 'scan -: 2 GiB of zeros, no newline', args: ['scan', '-', '-r', 'json'], stdinBytes: 2 * GiB, timeoutMs: BIG_MS, code: 1, stderr: [], rss: true,
    check: (r) => oversized(r, 2 * GiB) },
  { name: 'canonicalize --check -: 600 MiB, no newline', args: ['canonicalize', '--check', '-', '-r', 'json'], stdinBytes: 600 * MiB, timeoutMs: BIG_MS, code: 1, stderr: [], rss: true,
    check: (r) => oversized(r, 600 * MiB) },
  { name: 'repair -: 600 MiB, no newline', args: ['repair', '-'], stdinBytes: 600 * MiB, timeoutMs: BIG_MS, code: 2,
    stderr: ['transcript-doctor: -: line 1 is too long to copy; nothing was written'], rss: true, check: (r) => (r.stdout === '' ? undefined : 'wrote to standard output') },
  { name: 'scan a 1 GiB file, no newline', args: ['scan', 'no-newline.jsonl', '-r', 'json'], timeoutMs: BIG_MS, code: 1, stderr: [], rss: true,
    check: (r) => oversized(r, GiB) },
  { name: 'repair --in-place a 1 GiB file, no newline', args: ['repair', '--in-place', 'no-newline.jsonl'], timeoutMs: BIG_MS, code: 2,
    stderr: ['transcript-doctor: no-newline.jsonl: line 1 is too long to copy; nothing was written'], rss: true,
    check: () => (fs.statSync(at('no-newline.jsonl')).size === GiB && fs.readdirSync(tmp).every((name) => !name.startsWith('no-newline.jsonl.')) ? undefined : 'the file or its folder changed') },
];

function same(actual, expected) {
  return JSON.stringify(actual) === JSON.stringify(expected) ? undefined : `found ${actual.length} ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
}

function oversized(result, bytes) {
  const findings = JSON.parse(result.stdout).files[0].findings;
  const found = findings.find((f) => f.rule === 'invalid-json' && f.line === 1);
  return found?.message.includes(`line of ${bytes} bytes is too long to parse`) ? undefined : `no oversized-line finding (${findings.map((f) => f.rule).join(', ')})`;
}

// ── run ─────────────────────────────────────────────────────────────────────

let socketServer;
let failed = false;
try {
  setUp();
  socketServer = net.createServer();
  await new Promise((resolve, reject) => socketServer.once('error', reject).listen(at('socket.jsonl'), resolve));

  const outcomes = [];
  for (const item of cases) {
    const result = await run(item.args, item);
    const problems = [];
    if (result.hung) problems.push('hung');
    else {
      if (result.code !== item.code) problems.push(`exit ${result.code ?? result.signal}, expected ${item.code}`);
      if (/\n\s+at |^\s+at /m.test(result.stderr) || result.stderr.includes('unexpected error')) problems.push('stack trace or unexpected error');
      if (JSON.stringify(lines(result.stderr)) !== JSON.stringify(item.stderr)) problems.push(`stderr ${JSON.stringify(lines(result.stderr))}`);
      if (problems.length === 0 && item.check) {
        let note;
        try {
          note = item.check(result);
        } catch (error) {
          note = `check failed: ${error.message}`;
        }
        if (note) problems.push(note);
      }
      if (item.rss && (result.rssMiB === undefined || result.rssMiB > RSS_LIMIT_MIB)) problems.push(`peak RSS ${result.rssMiB ?? '?'} MiB`);
    }
    outcomes.push({ item, result, problems });
    if (problems.length > 0) console.error(`  ${item.name}: ${clip(problems.join('; '))}`);
  }

  const report = (what, passed, total, details) => {
    const ok = passed === total;
    if (!ok) failed = true;
    console.log(`harden inputs: ${what} ${passed}/${total} ${ok ? 'ok' : 'FAIL'} (${details})`);
  };
  const hangs = outcomes.filter((o) => o.result.hung);
  console.log(`harden inputs: hangs ${hangs.length}/${outcomes.length} ${hangs.length === 0 ? 'ok' : 'FAIL'} (${hangs.length === 0 ? 'every run ended before its timeout' : hangs.map((o) => o.item.name).join('; ')})`);
  if (hangs.length > 0) failed = true;
  const clean = outcomes.filter((o) => o.problems.length === 0);
  report('cases with the expected exit code, one-line messages and no stack trace', clean.length, outcomes.length,
    clean.length === outcomes.length ? `exit codes: ${summariseCodes(outcomes)}` : outcomes.filter((o) => o.problems.length > 0).map((o) => o.item.name).join('; '));
  const measured = outcomes.filter((o) => o.item.rss);
  const bounded = measured.filter((o) => o.result.rssMiB !== undefined && o.result.rssMiB <= RSS_LIMIT_MIB);
  report(`peak RSS at most ${RSS_LIMIT_MIB} MiB`, bounded.length, measured.length,
    `${TIME ? '/usr/bin/time -v' : 'process.resourceUsage'}: ${measured.map((o) => `${o.item.name} ${o.result.rssMiB ?? '?'} MiB, ${o.result.seconds.toFixed(1)} s`).join('; ')}`);
} catch (error) {
  failed = true;
  console.log(`harden inputs: set-up 0/1 FAIL (${error.message})`);
} finally {
  socketServer?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

function clip(text, max = 300) {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

function summariseCodes(outcomes) {
  const counts = new Map();
  for (const { result } of outcomes) counts.set(result.code, (counts.get(result.code) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([code, n]) => `${n}× ${code}`).join(', ');
}
