// harden secrets: what reaches the verify judge. Runs the built CLI's `verify` against a fake judge on 127.0.0.1 and
// checks that none of the published secret shapes (docs/secrets.md, generated in lib/secret-shapes.mjs) leaks into any
// request, that a 1.2M-character user message is cut to the prompt budget, how verdict replies are read, that a
// failing detector stops the request, and how long masking takes on 1 MB adversarial inputs.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alnum, leaked, SHAPES } from './lib/secret-shapes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'verify', 'llm', 'mask-for-judge.js'))) {
    console.log('harden secrets: built CLI 0/1 FAIL (run npm run build first)');
    return 1;
  }
  const work = mkdtempSync(join(tmpdir(), 'td-harden-secrets-'));
  const judge = await startJudge();
  judge.stateDir = work;
  let failed = false;
  const report = (what, n, m, ok, details) => {
    failed ||= !ok;
    console.log(`harden secrets: ${what} ${n}/${m} ${ok ? 'ok' : 'FAIL'} (${details})`);
  };
  try {
    publishedList(report);
    await leaks(work, judge, report);
    await promptCap(work, judge, report);
    await verdicts(work, judge, report);
    await failClosed(work, judge, report);
    adversarialTiming(report);
  } catch (error) {
    report('run', 0, 1, false, error instanceof Error ? error.message : String(error));
  } finally {
    await judge.close();
    rmSync(work, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

function publishedList(report) {
  const doc = readFileSync(join(ROOT, 'docs', 'secrets.md'), 'utf8');
  const missing = SHAPES.filter(([name]) => !doc.includes(`| ${name} |`)).map(([name]) => name);
  const ok = missing.length === 0 && SHAPES.length >= 40;
  report('shapes published in docs/secrets.md', SHAPES.length - missing.length, SHAPES.length, ok, missing.length > 0 ? `missing: ${missing.join('; ')}` : 'every tested shape is listed');
}

async function leaks(work, judge, report) {
  const cases = SHAPES.map(([name, make], i) => ({ name, marker: `(shape ${String(i + 1).padStart(2, '0')})`, ...make() }));
  // Five places the judge reads: two user messages, two answers (the first also as history) and a rules file.
  const places = [[], [], [], [], []];
  cases.forEach((c, i) => places[i % 5].push(`${c.marker} ${c.text}`));
  const [user1, answer1, user2, answer2, rules] = places.map((lines) => lines.join('\n'));
  const file = join(work, 'shapes.jsonl');
  writeFileSync(file, transcript([[user1, answer1], [user2, answer2]]));
  writeFileSync(join(work, 'AGENTS.md'), `# Rules\nBe precise.\n${rules}\n`);
  judge.requests.length = 0;
  const started = performance.now();
  const run = await cli(['verify', '--all', '--rules', join(work, 'AGENTS.md'), file], judge);
  const ms = Math.round(performance.now() - started);
  const sent = judge.requests.join('\n\n');
  const unsent = cases.filter((c) => !sent.includes(c.marker));
  const leakedCases = cases.filter((c) => c.secrets.some((secret) => leaked(sent, secret)));
  const { maskSecrets } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'llm', 'secrets.js')).href);
  const { secretlint } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'llm', 'secretlint.js')).href);
  const unmasked = cases.filter((c) => c.secrets.every((secret) => leaked(c.text, secret))).length;
  const oursAlone = cases.filter((c) => c.secrets.some((secret) => leaked(maskSecrets(c.text).text, secret))).length;
  let secretlintAlone = 0;
  for (const c of cases) if ((await secretlint(c.text)).length > 0) secretlintAlone++;
  const ok = run.code === 0 && judge.requests.length === 2 && unsent.length === 0 && leakedCases.length === 0 && unmasked === cases.length;
  const problems = [
    ...(run.code === 0 ? [] : [`exit ${run.code}: ${run.stderr.trim().slice(0, 200)}`]),
    ...(unsent.length > 0 ? [`never reached the judge, so not tested: ${unsent.map((c) => c.name).join('; ')}`] : []),
    ...(leakedCases.length > 0 ? [`LEAKED: ${leakedCases.map((c) => c.name).join('; ')}`] : []),
  ];
  report('secrets leaked', leakedCases.length, cases.length, ok, [
    `${cases.length} shapes in 2 user messages, 2 answers and AGENTS.md, ${judge.requests.length} requests, verify ran ${ms} ms`,
    `the check finds ${unmasked}/${cases.length} in the unmasked texts, our patterns alone leak ${oursAlone}/${cases.length}, secretlint alone recognises ${secretlintAlone}/${cases.length}`,
    ...problems,
  ].join('; '));
}

async function promptCap(work, judge, report) {
  const tailKey = `sk_live_${alnum(99)}`;
  const line = (i) => `2026-05-04T08:00:${String(i % 60).padStart(2, '0')}Z worker-${i % 7} INFO processed batch ${i} in ${i % 97} ms\n`;
  let log = 'Here is the full log of last night\'s run:\n';
  for (let i = 0; log.length < 1_200_000 - 200; i++) log += line(i);
  const question = `The last line before the crash used ${tailKey}. Why did the run stop?`;
  const message = log.slice(0, 1_200_000 - question.length) + question;
  const file = join(work, 'huge.jsonl');
  writeFileSync(file, transcript([[message, 'The run stopped because the batch worker ran out of memory. Done.']]));
  judge.requests.length = 0;
  const started = performance.now();
  const run = await cli(['verify', '--all', file], judge);
  const ms = Math.round(performance.now() - started);
  const [prompt = ''] = judge.requests;
  const size = judge.systemLength + prompt.length;
  const checks = {
    'one request': judge.requests.length === 1,
    'within 32,000 characters': size <= 32_000,
    'head kept': prompt.includes("Here is the full log of last night's run:"),
    'tail kept': prompt.includes('Why did the run stop?'),
    'cut marked': /\[… \d+ characters of the user message left out here …\]/.test(prompt),
    'tail secret masked': !leaked(prompt, tailKey.slice(8)),
    'exit 0': run.code === 0,
  };
  const failedChecks = Object.entries(checks).filter(([, ok]) => !ok).map(([name]) => name);
  report('prompt within budget', failedChecks.length === 0 ? 1 : 0, 1, failedChecks.length === 0,
    `${message.length.toLocaleString('en')}-character user message sent as a ${size.toLocaleString('en')}-character prompt (system + user), head and tail kept, cut marked, verify ran ${ms} ms${failedChecks.length > 0 ? `; failed: ${failedChecks.join(', ')}` : ''}`);
}

/** Replies the judge might give, and how each must be read. */
const VERDICT_CASES = [
  ['Goal: met.\nCompleteness: complete.\nRules: followed.\nPASS', 'PASS'],
  ['Reasoning... PASS', 'PASS'],
  ['All three criteria are met. Verdict: PASS', 'PASS'],
  ['Reasons above.\n**Verdict:** **PASS**', 'PASS'],
  ['Fine.\n\nPASS.\n\n', 'PASS'],
  ['ok\nFAIL [incomplete]: the list stops at item 3', 'FAIL incomplete'],
  ['Verdict: FAIL [goal_missed]: answer the question that was asked', 'FAIL goal_missed'],
  ['**FAIL [rule_violation]: SOUL.md asks for a formal tone**', 'FAIL rule_violation'],
  ['Reasoning...\nFAIL [refusal]: the agent declined a safe request', 'FAIL refusal'],
  ['The answer does not PASS', 'ERROR'],
  ["I can't PASS this", 'ERROR'],
  ['FAIL or PASS', 'ERROR'],
  ['FAIL [made_up]: x', 'ERROR'],
  ['FAIL: no category', 'ERROR'],
  ['PASS\nOn reflection, no.', 'ERROR'],
  ['The response passes', 'ERROR'],
  ['', 'ERROR'],
];

async function verdicts(work, judge, report) {
  const file = join(work, 'verdicts.jsonl');
  writeFileSync(file, transcript(VERDICT_CASES.map((_, i) => [`question ${i}`, `verdict-case-${i}: here is my answer.`])));
  judge.requests.length = 0;
  const run = await cli(['verify', '--all', '--retries', '0', '-r', 'json', file], judge);
  const got = JSON.parse(run.stdout || '{"files":[{"verdicts":[]}]}').files[0].verdicts.map((v) => `${v.verdict}${v.category ? ` ${v.category}` : ''}`);
  const wrong = VERDICT_CASES.map(([reply, expected], i) => ({ reply, expected, got: got[i] })).filter((c) => c.got !== c.expected);
  report('verdict replies read right', VERDICT_CASES.length - wrong.length, VERDICT_CASES.length, wrong.length === 0,
    wrong.length === 0 ? 'PASS at the end of the last line, FAIL [category]: anywhere in it; negated, mixed or malformed lines are ERROR' : wrong.map((c) => `${JSON.stringify(c.reply)}: ${c.got ?? 'none'} instead of ${c.expected}`).join('; '));
}

/** The detector failing must stop the request: run the judge in-process with a masker that throws. */
async function failClosed(work, judge, report) {
  const { verifyFile } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'run.js')).href);
  const { VerdictCache } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'llm', 'cache.js')).href);
  const { DEFAULT_SETTINGS } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'settings.js')).href);
  const file = join(work, 'fail-closed.jsonl');
  writeFileSync(file, transcript([['deploy it', 'Done, deployed.']]));
  judge.requests.length = 0;
  const result = await verifyFile(file, file, {
    settings: { ...DEFAULT_SETTINGS, verifyAll: true },
    model: { provider: 'openai', model: 'judge', protocol: 'openai', baseUrl: judge.url, apiKey: '' },
    cache: new VerdictCache(undefined),
    rules: [],
    timeoutMs: 10_000,
    maxRetries: 0,
    schedule: (task) => task(),
    beforeFirstRequest: () => undefined,
    maskTexts: async () => {
      throw new Error('detector crashed');
    },
  });
  const verdict = result.verdicts[0];
  const ok = judge.requests.length === 0 && verdict?.verdict === 'ERROR';
  report('detector failure sends nothing', ok ? 1 : 0, 1, ok, `${judge.requests.length} requests, verdict ${verdict?.verdict}: ${verdict?.feedback}`);
}

const ADVERSARIAL_LIMIT_MS = 5_000;

/** Timing runs in a child so that a regex gone quadratic is killed, not waited for. */
function adversarialTiming(report) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--adversarial'], { encoding: 'utf8', timeout: 90_000 });
  let rows;
  try {
    rows = JSON.parse(child.stdout);
  } catch {
    report('masking 1 MB adversarial inputs', 0, 1, false, `the timing child did not finish (${child.error?.message ?? `exit ${child.status}`})`);
    return;
  }
  const slow = rows.filter((row) => row.ms > ADVERSARIAL_LIMIT_MS);
  const slowest = rows.reduce((a, b) => (b.ms > a.ms ? b : a));
  report('masking 1 MB adversarial inputs', rows.length - slow.length, rows.length, slow.length === 0,
    `our patterns + secretlint, slowest ${slowest.ms} ms on ${slowest.name}, 1.2 MB of log ${rows.find((row) => row.name === 'a 1.2 MB log').ms} ms; limit ${ADVERSARIAL_LIMIT_MS} ms each`);
}

async function adversarial() {
  const { maskForJudge } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'llm', 'mask-for-judge.js')).href);
  const repeat = (unit, size = 1_000_000) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const inputs = {
    'one base64 word': repeat('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkr/'),
    'snake_case without end': repeat('a_'),
    'kebab-case without end': repeat('sk-'),
    'assignments without values': repeat('password='),
    'unterminated PEM headers': repeat('-----BEGIN PRIVATE KEY-----'),
    dashes: repeat('-'),
    'JWT-looking dots': repeat('eyJ') + repeat('.') + repeat('eyJ'),
    'URL-looking text': repeat('a://b:'),
    'URL user info without host': 'a://:' + repeat('x@'),
    'bearer prefixes': repeat('Bearer '),
    'authorization headers': repeat('Authorization: '),
    'curl -u without password': repeat('-u a:'),
    'mysql without -p': repeat('mysql '),
    'netrc words': repeat('login a password '),
    'hex run': repeat('0123456789abcdef'),
    'digits and colons': repeat('1234567:'),
    'Q~ lookalikes': repeat('abc1Q~'),
    'cookie headers without values': repeat('Cookie: '),
    'curl -b without cookies': `curl ${repeat(' -b ')}`,
    'redis-cli without -a': repeat('redis-cli '),
    '"password is" without a value': repeat('password is '),
    'account SIDs without tokens': repeat('AC0123456789abcdef0123456789abcdef '),
    'heroku without a key': repeat('heroku '),
    '.pgpass lookalikes': repeat('a:1:b:c:'),
    'long mixed words': repeat('abcdefghijklmnopqrstuvwxyzABCDEFGH0123456789 '),
    'a 1.2 MB log': repeat('2026-05-04T08:00:00Z worker-3 INFO batch 17 took 42 ms; token=abc, password: x, Bearer y\n', 1_200_000),
  };
  const rows = [];
  for (const [name, text] of Object.entries(inputs)) {
    const started = performance.now();
    await maskForJudge([text]);
    rows.push({ name, ms: Math.round(performance.now() - started) });
  }
  process.stdout.write(JSON.stringify(rows));
}

/** A pi transcript of [user, assistant] turns. */
function transcript(turns) {
  let clock = Date.UTC(2026, 4, 4, 8, 0, 0);
  let parent = null;
  let n = 0;
  const lines = [JSON.stringify({ type: 'session', version: 3, id: randomUUID(), timestamp: new Date(clock).toISOString(), cwd: '/workspace/demo' })];
  const add = (message) => {
    clock += 1000;
    const id = (++n).toString(16).padStart(8, '0');
    lines.push(JSON.stringify({ type: 'message', id, parentId: parent, timestamp: new Date(clock).toISOString(), message: { ...message, timestamp: clock } }));
    parent = id;
  };
  for (const [user, answer] of turns) {
    add({ role: 'user', content: user });
    add({ role: 'assistant', content: [{ type: 'text', text: answer }], api: 'openai-completions', provider: 'openai', model: 'gpt-4.1', usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 }, stopReason: 'stop' });
  }
  return lines.map((line) => `${line}\n`).join('');
}

/** An OpenAI-compatible judge on 127.0.0.1 that records what it is sent and answers from VERDICT_CASES or PASS. */
async function startJudge() {
  const requests = [];
  const judge = { requests, systemLength: 0, url: '', close: () => undefined };
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      judge.systemLength = system.length;
      requests.push(user);
      const answered = /verdict-case-(\d+):/.exec(user.slice(user.lastIndexOf('## Agent response')));
      const text = answered === null ? 'PASS' : VERDICT_CASES[Number(answered[1])][0];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  judge.url = `http://127.0.0.1:${server.address().port}`;
  judge.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return judge;
}

/** The built CLI against the fake judge, killed after a minute so the suite never hangs. */
function cli(args, judge) {
  return new Promise((resolve) => {
    const [command, ...rest] = args;
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), command, '--model', 'openai/judge', '--base-url', judge.url, '--no-cache', ...rest], {
      cwd: ROOT,
      // The OpenClaw state folder points at an empty place, so this machine's own verifier config plays no part.
      env: { ...process.env, OPENAI_API_KEY: 'fake-key-for-a-local-judge', OPENCLAW_STATE_DIR: judge.stateDir, CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// Last, so that every constant above exists when it runs.
if (process.argv[2] === '--adversarial') await adversarial();
else process.exitCode = await main();
