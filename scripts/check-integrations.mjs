// Checks that the GitHub Action and the pre-commit hooks work from a plain git checkout of this
// repository, as a user's runner or machine gets it: no dist/, and transcript-doctor fetched from
// no registry. Needs network (npm fetches the dependencies in the lock file) and the `pre-commit`
// tool (`apt-get install pre-commit` or `pip install pre-commit`), so it is run by hand, not by `npm test`.
//
//   node scripts/check-integrations.mjs [--keep]
//
// It clones the committed HEAD into a temporary folder and sends npm through a recording proxy on
// 127.0.0.1 that refuses transcript-doctor itself; with an empty npm cache, every package comes
// through the proxy, with NODE_ENV=production set as in some CI setups. Then:
//   - the Action: runs each `run:` step of action.yml (the `${{ }}` expressions filled in) with
//     bash, as the runner does, over a broken and a healthy session; expects the build, the
//     annotations, the SARIF file and the step output; then runs it again, already built;
//   - pre-commit: a scratch repository whose .pre-commit-config.yaml points at the clone runs
//     `pre-commit run --all-files`: it must fail on the broken session with the finding, pass
//     on the healthy one.
// Prints one line per check with its figures, and exits 1 if any failed.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'td-check-integrations-'));
let failures = 0;

function check(ok, line) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
  if (!ok) failures += 1;
}

/** Runs a command to its end, asynchronously: the registry proxy in this process must keep answering meanwhile. */
function run(command, args, options = {}) {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 900_000, ...options });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolve({ code: error.code, stdout, stderr: String(error), seconds: '0.0' }));
    child.on('close', (code, signal) => {
      const seconds = (Number(process.hrtime.bigint() - started) / 1e9).toFixed(1);
      resolve({ code: code ?? signal, stdout, stderr, seconds });
    });
  });
}

/** A registry proxy that records what npm asks for and answers 404 for transcript-doctor. */
async function startRegistryProxy() {
  const upstream = new URL((await run('npm', ['config', 'get', 'registry'])).stdout.trim() || 'https://registry.npmjs.org/');
  const requests = [];
  const refused = [];
  const server = http.createServer((request, response) => {
    const path = decodeURIComponent(request.url ?? '/');
    if (/(^|\/)transcript-doctor(\/|$|-\d)/.test(path)) {
      refused.push(path);
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    requests.push(path);
    const forwarded = https.request(new URL(request.url ?? '/', upstream), {
      method: request.method,
      headers: { ...request.headers, host: upstream.host },
    }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.on('error', (error) => response.writeHead(502).end(String(error)));
    request.pipe(forwarded);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, requests, refused, close: () => server.close() };
}

const head = (await run('git', ['-C', ROOT, 'rev-parse', 'HEAD'])).stdout.trim();
const checkout = join(work, 'transcript-doctor');
await run('git', ['clone', '--quiet', '--no-checkout', ROOT, checkout]);
await run('git', ['-C', checkout, 'checkout', '--quiet', head]);
check(existsSync(join(checkout, 'package.json')) && !existsSync(join(checkout, 'dist')), `clone of ${head.slice(0, 12)} in ${checkout}, without dist/`);

const proxy = await startRegistryProxy();
const npmEnv = {
  ...process.env,
  npm_config_registry: proxy.url,
  npm_config_cache: join(work, 'npm-cache'),
  npm_config_replace_registry_host: 'always',
  // As some CI setups have it: the build must still get its devDependencies.
  NODE_ENV: 'production',
  CI: 'true',
};

/** A workspace with one broken and one healthy session, as the user's repository would hold them. */
function workspace(name) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  copyFileSync(join(checkout, 'fixtures', 'pi', 'missing-tool-result.jsonl'), join(dir, 'sessions', 'broken.jsonl'));
  copyFileSync(join(checkout, 'fixtures', 'pi', 'healthy.jsonl'), join(dir, 'sessions', 'healthy.jsonl'));
  return dir;
}

// ---- The Action
const action = parse(readFileSync(join(checkout, 'action.yml'), 'utf8'));
const actionWorkspace = workspace('action-workspace');

/** Runs every step of the composite action as the runner does; stops at the first failing step, as the runner does. */
async function runAction(inputs) {
  const values = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, inputs[name] ?? input.default]));
  const output = join(work, 'github-output');
  writeFileSync(output, '');
  const expression = (text) =>
    String(text).replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name) => {
      if (name.startsWith('inputs.') && name.slice(7) in values) return values[name.slice(7)];
      if (name === 'github.action_path') return checkout;
      if (name === 'github.workspace') return actionWorkspace;
      throw new Error(`action.yml: no value for ${whole}`);
    });
  const steps = [];
  for (const step of action.runs.steps) {
    const env = { ...npmEnv, GITHUB_ACTION_PATH: checkout, GITHUB_WORKSPACE: actionWorkspace, GITHUB_OUTPUT: output };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expression(value);
    const cwd = join(actionWorkspace, expression(step['working-directory'] ?? '.'));
    const result = await run('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', expression(step.run)], { cwd, env });
    steps.push({ id: step.id, ...result });
    if (result.code !== 0) break;
  }
  return { steps, outputs: readFileSync(output, 'utf8') };
}

const first = await runAction({ paths: 'sessions/', 'sarif-file': 'transcript-doctor.sarif' });
const [build, scan] = first.steps;
const version = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')).version;
check(build?.code === 0 && build.stdout.trim() === version,
  `action step "${build?.id}": exit ${build?.code} in ${build?.seconds} s, printed ${JSON.stringify(build?.stdout.trim())}, built ${existsSync(join(checkout, 'dist', 'bundle', 'cli.cjs')) ? 'dist/bundle/cli.cjs' : 'nothing'}`);
if (build?.code !== 0) console.log(build?.stderr.slice(-3000));
const annotations = scan?.stdout.match(/^::(error|warning) file=sessions\/broken\.jsonl,line=\d+/gm) ?? [];
const sarifPath = join(actionWorkspace, 'transcript-doctor.sarif');
const sarif = existsSync(sarifPath) ? JSON.parse(readFileSync(sarifPath, 'utf8')) : undefined;
const results = sarif?.runs?.[0]?.results ?? [];
check(scan?.code === 1 && annotations.length > 0 && !/healthy\.jsonl/.test(scan.stdout.match(/^::.*$/gm)?.join('\n') ?? ''),
  `action step "${scan?.id}": exit ${scan?.code} in ${scan?.seconds} s, ${annotations.length} annotations on sessions/broken.jsonl, none on healthy.jsonl`);
check(sarif?.version === '2.1.0' && results.some((result) => result.ruleId === 'missing-tool-result'),
  `SARIF ${sarif?.version} with ${results.length} results (${[...new Set(results.map((result) => result.ruleId))].join(', ')})`);
check(first.outputs === 'sarif-file=transcript-doctor.sarif\n', `step output: ${JSON.stringify(first.outputs)}`);

const again = await runAction({ paths: 'sessions/healthy.jsonl', 'sarif-file': 'healthy.sarif' });
check(again.steps.every((step) => step.code === 0) && !/building/.test(again.steps[0].stderr),
  `again, already built, on the healthy session: ${again.steps.map((step) => `${step.id} exit ${step.code} in ${step.seconds} s`).join(', ')}`);

// ---- pre-commit
const preCommitVersion = await run('pre-commit', ['--version']);
if (preCommitVersion.code !== 0) {
  check(false, 'pre-commit is not installed (apt-get install pre-commit, or pip install pre-commit)');
} else {
  const hooksCheckout = join(work, 'hooks-repo');
  await run('git', ['clone', '--quiet', '--no-checkout', ROOT, hooksCheckout]);
  await run('git', ['-C', hooksCheckout, 'checkout', '--quiet', head]);
  const repo = workspace('pre-commit-workspace');
  const git = (...args) => run('git', ['-C', repo, ...args]);
  await git('init', '--quiet');
  writeFileSync(join(repo, '.pre-commit-config.yaml'), [
    'repos:',
    `  - repo: ${hooksCheckout}`,
    `    rev: ${head}`,
    '    hooks:',
    '      - id: transcript-doctor',
    '      - id: transcript-doctor-canonicalize',
    '',
  ].join('\n'));
  await git('add', '.');
  const preCommit = (...args) => run('pre-commit', args, { cwd: repo, env: { ...npmEnv, PRE_COMMIT_HOME: join(work, 'pre-commit-home') } });
  const failing = await preCommit('run', '--all-files');
  check(failing.code === 1 && /missing-tool-result/.test(failing.stdout) && /broken\.jsonl/.test(failing.stdout),
    `${preCommitVersion.stdout.trim()}: run --all-files with a broken session: exit ${failing.code} in ${failing.seconds} s (first run: clone and build), reports missing-tool-result in sessions/broken.jsonl`);
  if (failing.code !== 1) console.log(failing.stdout.slice(-3000), failing.stderr.slice(-2000));
  await git('rm', '-f', '--quiet', 'sessions/broken.jsonl');
  const passing = await preCommit('run', '--all-files');
  check(passing.code === 0 && (passing.stdout.match(/Passed/g) ?? []).length === 2,
    `run --all-files with only the healthy session: exit ${passing.code} in ${passing.seconds} s, ${(passing.stdout.match(/Passed/g) ?? []).length} hooks passed`);
  if (passing.code !== 0) console.log(passing.stdout.slice(-3000), passing.stderr.slice(-2000));
}

proxy.close();
const packages = new Set(proxy.requests.filter((path) => !path.includes('/-/')).map((path) => path.replace(/^\//, '')));
check(proxy.refused.length === 0,
  `registry: ${proxy.requests.length} requests through the proxy (${packages.size} package documents), ${proxy.refused.length} for transcript-doctor`);
if (keep) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
process.exit(failures === 0 ? 0 : 1);
