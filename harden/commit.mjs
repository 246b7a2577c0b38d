// Reliability checks for the writer shared by repair and canonicalize (--in-place, --out, standard input):
// kills at random moments, writers racing the commit, locks, output paths and spool clean-up.
// Runs the built CLI (npm run build first). Prints one line per item; exits 1 if any fails.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin', 'transcript-doctor.js');
const KILLS = 40;
const RACES = 30;
const CANONICAL_RACES = 8;
const TORN_APPENDS = 30;
const CHILD_TIMEOUT_MS = 60_000;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'td-harden-commit-'));
let failed = false;

function report(what, passed, total, details, alsoOk = true) {
  const ok = passed === total && alsoOk;
  if (!ok) failed = true;
  console.log(`harden commit: ${what} ${passed}/${total} ${ok ? 'ok' : 'FAIL'} (${details})`);
}

/** Runs a command with a hard timeout; resolves with its exit code (or signal) and output. */
function spawnChecked(command, args, { env, stdin, onSpawn, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: cwd ?? ROOT, env: { ...process.env, CI: '1', ...env } });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (stdin === undefined) child.stdin.end();
    else if (stdin !== 'open') child.stdin.end(stdin);
    onSpawn?.(child);
  });
}

const cli = (args, options) => spawnChecked(process.execPath, [BIN, ...args], options);

/**
 * A pi session of about `bytes` with one line to fix near the top, then many healthy turns, so
 * the whole file is rewritten: a tool call that never got its result (for repair), or with
 * `legacy`, an answered call in the legacy `tool_use` shape (for canonicalize).
 */
function session(bytes, { legacy = false } = {}) {
  const lines = [JSON.stringify({ type: 'session', version: 3, id: 'a1f0c2d4-5b6e-4f70-8a91-b2c3d4e5f601', timestamp: '2026-03-10T08:00:00.000Z', cwd: '/workspace/demo-project' })];
  let parent = null;
  let n = 0;
  const push = (entry) => {
    const id = (0x10000000 + n++).toString(16);
    lines.push(JSON.stringify({ type: entry.type, id, parentId: parent, timestamp: new Date(Date.UTC(2026, 2, 10, 8) + n * 1000).toISOString(), ...entry }));
    parent = id;
  };
  const usage = { input: 12, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: 52, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const user = (text) => push({ type: 'message', message: { role: 'user', content: [{ type: 'text', text }], timestamp: 1773129600000 + n } });
  const assistant = (content, stopReason) =>
    push({ type: 'message', message: { role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage, stopReason, timestamp: 1773129600000 + n } });
  push({ type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
  user('Read the production config, please.');
  if (legacy) {
    assistant([{ type: 'tool_use', id: 'toolu_01HardenLegacyShape00001', name: 'read', input: { path: 'config/production.json' } }], 'toolUse');
    push({ type: 'message', message: { role: 'toolResult', toolCallId: 'toolu_01HardenLegacyShape00001', toolName: 'read', content: [{ type: 'text', text: '{}' }], isError: false, timestamp: 1773129600000 + n } });
  } else {
    assistant([{ type: 'toolCall', id: 'toolu_01HardenMissingResult0001', name: 'read', arguments: { path: 'config/production.json' } }], 'toolUse');
  }
  user('Hello? Did that get stuck?');
  assistant([{ type: 'text', text: 'Sorry, the read never came back.' }], 'stop');
  let size = lines.join('\n').length;
  for (let turn = 0; size < bytes; turn++) {
    const before = lines.length;
    user(`Question ${turn}: what does step ${turn} of the deploy script do? ${'Some context. '.repeat(20)}`);
    assistant([{ type: 'text', text: `Step ${turn} copies the build output and restarts the service. ${'More detail. '.repeat(40)}` }], 'stop');
    for (const line of lines.slice(before)) size += line.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

const TEMP = /^\..*\.(?:transcript-doctor|td)-\d+-[0-9a-f]+\.(?:tmp|hold)$/;
const temps = (dir) => fs.readdirSync(dir).filter((name) => TEMP.test(name));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A separate process that watches `file`'s folder (inotify, so it does not slow the folder down
 * the way a readdir loop would) until `trigger` happens: a temp file, a backup or hold link
 * appears, or the live file is renamed over. It then waits `delayUs` microseconds and appends
 * `payload` by name the way pi does (open, write, close), or creates a lock naming pid `payload`.
 */
const WRITER = `
const fs = require('node:fs');
const path = require('node:path');
const [trigger, file, action, payload, delayUs] = process.argv.slice(1);
const base = path.basename(file);
const ino = fs.statSync(file).ino;
const seen = {
  temp: (n) => n.startsWith('.' + base + '.') && n.endsWith('.tmp'),
  backup: (n) => n.startsWith(base + '.bak-'),
  hold: (n) => n.startsWith('.' + base + '.') && n.endsWith('.hold'),
  rename: (n) => n === base && fs.statSync(file).ino !== ino,
};
const watcher = fs.watch(path.dirname(file), (_event, name) => {
  if (name === null || !seen[trigger](String(name))) return;
  watcher.close();
  const until = process.hrtime.bigint() + BigInt(Number(delayUs) * 1000);
  while (process.hrtime.bigint() < until);
  if (action === 'append') fs.appendFileSync(file, payload);
  else if (action === 'open-then-append') {
    // A writer descheduled between its open and its write: the open lands before the rename.
    const fd = fs.openSync(file, 'a');
    const late = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * 100_000) * 1000);
    while (process.hrtime.bigint() < late);
    fs.writeSync(fd, payload);
    fs.closeSync(fd);
  }
  else fs.writeFileSync(file + '.lock', JSON.stringify({ pid: Number(payload), createdAt: new Date().toISOString() }, null, 2));
  process.stdout.write('fired\\n');
  process.exit(0);
});
setTimeout(() => { process.stdout.write('timeout\\n'); process.exit(3); }, 30000);
process.stdout.write('ready\\n');
`;

async function startWriter(trigger, file, action, payload, delayUs = 0) {
  let child;
  const done = spawnChecked(process.execPath, ['-e', WRITER, trigger, file, action, String(payload), String(delayUs)], {
    onSpawn: (spawned) => (child = spawned),
  });
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', () => reject(new Error('writer exited before it was ready')));
  });
  // Wrapped: returning the promise itself would make the caller wait for the writer to finish.
  return { done };
}

async function kills(original, repaired) {
  const dir = fs.mkdtempSync(path.join(work, 'kills-'));
  const file = path.join(dir, 'session.jsonl');
  fs.writeFileSync(file, original);
  const started = Date.now();
  await cli(['repair', '--in-place', '--no-backup', file]);
  const span = Math.max(50, (Date.now() - started) * 1.2);
  const seen = { original: 0, repaired: 0, torn: 0, litter: 0 };
  let safe = 0;
  for (let trial = 0; trial < KILLS; trial++) {
    for (const name of fs.readdirSync(dir)) if (name !== 'session.jsonl' && !TEMP.test(name)) fs.rmSync(path.join(dir, name));
    fs.writeFileSync(file, original);
    const at = Math.random() * span;
    const args = ['repair', '--in-place', ...(trial % 2 === 0 ? ['--no-backup'] : []), file];
    await cli(args, { onSpawn: (child) => setTimeout(() => child.kill('SIGKILL'), at) });
    const now = fs.readFileSync(file);
    if (now.equals(original)) seen.original++;
    else if (now.equals(repaired)) seen.repaired++;
    else seen.torn++;
    if (now.equals(original) || now.equals(repaired)) safe++;
    if (temps(dir).length > 0) seen.litter++;
  }
  fs.writeFileSync(file, original);
  const next = await cli(['repair', '--in-place', '--no-backup', file]);
  const left = temps(dir).length;
  report(
    'kills safe',
    safe,
    KILLS,
    `kill -9 within ${Math.round(span)} ms of start: ${seen.original} original, ${seen.repaired} repaired, ${seen.torn} torn; ${seen.litter} runs left a temp file, ${left} left after the next run (exit ${next.code})`,
    left === 0 && next.code === 0,
  );
}

async function races(command, original, repaired, trials) {
  const plans = [
    { trigger: 'temp', delayUs: 0, backup: true },
    { trigger: 'temp', delayUs: 'random', backup: false },
    { trigger: 'backup', delayUs: 0, backup: true },
    { trigger: 'hold', delayUs: 0, backup: false },
    { trigger: 'rename', delayUs: 0, backup: true },
    { trigger: 'backup', delayUs: 'tiny', backup: true },
    { trigger: 'backup', delayUs: 0, backup: true, action: 'open-then-append' },
    { trigger: 'hold', delayUs: 0, backup: false, action: 'open-then-append' },
  ];
  const outcomes = { appliedAfter: 0, refused: 0, putBack: 0 };
  const problems = [];
  let kept = 0;
  for (let trial = 0; trial < trials; trial++) {
    const plan = plans[trial % plans.length];
    const dir = fs.mkdtempSync(path.join(work, 'race-'));
    const file = path.join(dir, 'session.jsonl');
    fs.writeFileSync(file, original);
    const line = `${JSON.stringify({ type: 'custom', id: `race${String(trial).padStart(4, '0')}`, parentId: null, timestamp: new Date().toISOString(), customType: 'harden', data: { trial } })}\n`;
    const delayUs = plan.delayUs === 'random' ? Math.floor(Math.random() * 40_000) : plan.delayUs === 'tiny' ? Math.floor(Math.random() * 300) : 0;
    const writer = await startWriter(plan.trigger, file, plan.action ?? 'append', line, delayUs);
    const result = await cli([command, '--in-place', ...(plan.backup ? [] : ['--no-backup']), file]);
    const wrote = await writer.done;
    const now = fs.readFileSync(file);
    const withLine = (base) => Buffer.concat([base, Buffer.from(line)]);
    let ok = false;
    if (!wrote.stdout.includes('fired')) problems.push(`${plan.trigger}: writer never fired`);
    else if (result.code === 0 && now.equals(withLine(repaired))) (ok = true), outcomes.appliedAfter++;
    else if (result.code === 2 && now.equals(withLine(original))) {
      ok = true;
      if (/changed while/.test(result.stderr)) outcomes.refused++;
      else outcomes.putBack++;
    } else problems.push(`${plan.trigger}: exit ${result.code}, ${now.includes(line) ? 'line kept but file differs' : 'line LOST'} ${result.stderr.trim()}`);
    if (temps(dir).length > 0) (ok = false), problems.push(`${plan.trigger}: temp file left`);
    if (ok) kept++;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  report(
    `race appends kept (${command})`,
    kept,
    trials,
    `${outcomes.appliedAfter} landed in the rewritten file, ${outcomes.refused} refused before the rename, ${outcomes.putBack} put back with exit 2${problems.length ? `; ${problems.slice(0, 3).join('; ')}` : ''}`,
  );
}

/**
 * The crash pattern behind most glued lines: the session ends in a torn append (a crash
 * mid-write), and the agent's next append lands on that same line at any moment of an in-place
 * repair. Whenever it lands, the appended record must survive: in the repaired file on a line of
 * its own (exit 0), or in the untouched original when the repair refuses (exit 2).
 */
async function tornTailAppends(original, trials) {
  const torn = Buffer.concat([original, Buffer.from('{"type":"message","id":"7f3e2a10","parentId":"10000003","timestamp":"2026-03-10T09:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Half writ')]);
  const outcomes = { kept: 0, refused: 0 };
  const problems = [];
  for (let trial = 0; trial < trials; trial++) {
    const dir = fs.mkdtempSync(path.join(work, 'torn-'));
    const file = path.join(dir, 'session.jsonl');
    fs.writeFileSync(file, torn);
    const line = JSON.stringify({ type: 'custom', id: `tail${String(trial).padStart(4, '0')}`, parentId: null, timestamp: new Date().toISOString(), customType: 'harden', data: { trial } });
    // Spread over the run: before the first read, during it, around the commit, after it.
    const delay = Math.floor((trial / trials) * 400);
    const run = cli(['repair', '--in-place', '--no-backup', file]);
    await sleep(delay);
    fs.appendFileSync(file, `${line}\n`);
    const result = await run;
    const now = fs.readFileSync(file, 'utf8');
    if (result.code === 0 && now.split('\n').includes(line)) outcomes.kept++;
    else if (result.code === 2 && now === `${torn}${line}\n`) outcomes.refused++;
    else problems.push(`append at ${delay} ms: exit ${result.code}, ${now.includes(line) ? 'line kept but file differs' : 'line LOST'}`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  report('appends onto a torn last line kept', outcomes.kept + outcomes.refused, trials, `${outcomes.kept} in the repaired file, ${outcomes.refused} refused with the file untouched${problems.length ? `; ${problems.slice(0, 3).join('; ')}` : ''}`);
}

async function locks(original) {
  const cases = [];
  const fresh = (name) => {
    const dir = fs.mkdtempSync(path.join(work, `lock-${name}-`));
    const file = path.join(dir, 'session.jsonl');
    fs.writeFileSync(file, original);
    return { dir, file };
  };
  const refused = async (name, args, file, pattern) => {
    const result = await cli(args);
    const intact = fs.readFileSync(file).equals(original);
    cases.push({ name, ok: result.code === 2 && pattern.test(result.stderr) && intact, why: `exit ${result.code}${intact ? '' : ', file changed'}` });
  };

  {
    const { dir, file } = fresh('symlink');
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, createdAt: new Date().toISOString() }));
    const link = path.join(fs.mkdtempSync(path.join(work, 'elsewhere-')), 'linked.jsonl');
    fs.symlinkSync(file, link);
    await refused('symlink to a locked file', ['repair', '--in-place', link], file, /locked by running process/);
    void dir;
  }
  {
    const { file } = fresh('output');
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, createdAt: new Date().toISOString() }));
    await refused('--out onto the input', ['repair', '--out', file, file], file, /is the input/);
  }
  for (const [name, body] of [
    ['string pid', JSON.stringify({ pid: String(process.pid), createdAt: new Date().toISOString() })],
    ['string pid with whitespace', JSON.stringify({ pid: ` ${process.pid}\n`, createdAt: new Date().toISOString() })],
    ['pretty-printed lock', JSON.stringify({ pid: process.pid, createdAt: new Date().toISOString(), starttime: 1 }, null, 2)],
    ['bare pid file', `${process.pid}\n`],
  ]) {
    const { file } = fresh(name.replace(/\W+/g, '-'));
    fs.writeFileSync(`${file}.lock`, body);
    await refused(name, ['repair', '--in-place', file], file, /locked by running process/);
  }
  for (let trial = 0; trial < 3; trial++) {
    const { file } = fresh('midrun');
    const writer = await startWriter('temp', file, 'lock', process.pid);
    await refused(`lock created mid-run #${trial + 1}`, ['repair', '--in-place', file], file, /locked by running process/);
    await writer.done;
  }
  const passed = cases.filter((c) => c.ok).length;
  const failures = cases.filter((c) => !c.ok).map((c) => `${c.name}: ${c.why}`);
  report('lock cases refused', passed, cases.length, failures.length ? failures.join('; ') : cases.map((c) => c.name).join(', '));
}

async function outputs(original) {
  const cases = [];
  const check = (name, ok, why = '') => cases.push({ name, ok, why });
  const src = fs.mkdtempSync(path.join(work, 'out-src-'));
  const a = path.join(src, 'a.jsonl');
  const b = path.join(src, 'sub', 'b.jsonl');
  fs.mkdirSync(path.dirname(b));
  fs.writeFileSync(a, original);
  fs.writeFileSync(b, original);
  fs.chmodSync(a, 0o600);
  fs.chmodSync(b, 0o640);

  {
    const out = fs.mkdtempSync(path.join(work, 'out-'));
    const outside = path.join(fs.mkdtempSync(path.join(work, 'outside-')), 'victim.jsonl');
    fs.writeFileSync(outside, 'precious\n');
    fs.symlinkSync(outside, path.join(out, 'a.jsonl'));
    const result = await cli(['repair', '--out', out, a, b]);
    check('symlink inside --out not followed', fs.readFileSync(outside, 'utf8') === 'precious\n' && result.code !== null, `exit ${result.code}`);
    const written = path.join(out, 'a.jsonl');
    const stat = fs.lstatSync(written);
    check('--out keeps a 0600 source 0600', stat.isFile() && (stat.mode & 0o777) === 0o600, `mode ${(stat.mode & 0o777).toString(8)}`);
    check('--out keeps a 0640 source 0640', (fs.statSync(path.join(out, 'sub', 'b.jsonl')).mode & 0o777) === 0o640);
  }
  {
    const out = fs.mkdtempSync(path.join(work, 'out-'));
    const away = fs.mkdtempSync(path.join(work, 'away-'));
    fs.symlinkSync(away, path.join(out, 'sub'));
    const result = await cli(['repair', '--out', out, a, b]);
    check('symlinked folder inside --out refused', result.code === 2 && fs.readdirSync(away).length === 0, `exit ${result.code}`);
  }
  {
    const result = await cli(['repair', '--out', src, a, b]);
    check('--out at the inputs folder refused', result.code === 2 && fs.readFileSync(a).equals(original) && fs.readFileSync(b).equals(original), `exit ${result.code}`);
  }
  {
    const dir = fs.mkdtempSync(path.join(work, 'suid-'));
    const file = path.join(dir, 'session.jsonl');
    fs.writeFileSync(file, original);
    fs.chmodSync(file, 0o6640);
    const wanted = fs.statSync(file).mode & 0o7777;
    const result = await cli(['repair', '--in-place', file]);
    const mode = fs.statSync(file).mode & 0o7777;
    check('--in-place keeps setuid/setgid', result.code === 0 && mode === wanted, `mode ${mode.toString(8)}, wanted ${wanted.toString(8)}`);
  }
  const passed = cases.filter((c) => c.ok).length;
  const failures = cases.filter((c) => !c.ok).map((c) => `${c.name}: ${c.why}`);
  report('output paths', passed, cases.length, failures.length ? failures.join('; ') : cases.map((c) => c.name).join(', '));
}

async function spools(original) {
  const tmp = fs.mkdtempSync(path.join(work, 'tmpdir-'));
  const env = { TMPDIR: tmp, TMP: tmp, TEMP: tmp };
  const spoolFolders = () => fs.readdirSync(tmp).filter((name) => name.startsWith('transcript-doctor-'));
  const cases = [];
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
    let child;
    const done = cli(['repair', '-'], { env, stdin: 'open', onSpawn: (spawned) => (child = spawned) });
    child.stdin.write(original.subarray(0, 1 << 16));
    for (let i = 0; i < 200 && spoolFolders().length === 0; i++) await sleep(10);
    const spooling = spoolFolders().length;
    child.kill(signal);
    const result = await done;
    cases.push({ name: signal, ok: spooling === 1 && result.code === code && spoolFolders().length === 0, why: `spooling ${spooling}, exit ${result.code ?? result.signal}, left ${spoolFolders().length}` });
  }
  {
    let child;
    const done = cli(['repair', '-'], { env, stdin: 'open', onSpawn: (spawned) => (child = spawned) });
    child.stdin.write(original.subarray(0, 1 << 16));
    for (let i = 0; i < 200 && spoolFolders().length === 0; i++) await sleep(10);
    child.kill('SIGKILL');
    await done;
    const left = spoolFolders().length;
    const next = await cli(['repair', '-'], { env, stdin: original });
    cases.push({ name: 'kill -9 swept by next run', ok: left === 1 && next.code === 0 && spoolFolders().length === 0, why: `left ${left}, then ${spoolFolders().length}` });
  }
  const passed = cases.filter((c) => c.ok).length;
  report('spool removed', passed, cases.length, cases.map((c) => `${c.name}: ${c.ok ? 'ok' : c.why}`).join(', '));
}

/** The generated session and what `command` makes of it. */
async function pair(command, before) {
  const probe = path.join(work, `${command}-probe.jsonl`);
  fs.writeFileSync(probe, before);
  const out = path.join(work, `${command}-out.jsonl`);
  const made = await cli([command, '--out', out, probe]);
  if (made.code !== 0) throw new Error(`cannot ${command} the generated session: ${made.stderr.trim()}`);
  const after = fs.readFileSync(out);
  if (after.equals(before)) throw new Error(`the generated session needed no ${command}`);
  return [before, after];
}

try {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run npm run build first');
  const [original, repaired] = await pair('repair', session(3 << 20));
  const [legacy, canonical] = await pair('canonicalize', session(1 << 20, { legacy: true }));
  await kills(original, repaired);
  await races('repair', original, repaired, RACES);
  await races('canonicalize', legacy, canonical, CANONICAL_RACES);
  await tornTailAppends(original, TORN_APPENDS);
  await locks(original);
  await outputs(original);
  await spools(original);
} catch (error) {
  failed = true;
  console.log(`harden commit: setup 0/1 FAIL (${error instanceof Error ? error.message : String(error)})`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
