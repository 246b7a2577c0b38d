import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './run-cli.js';

/** The GitHub Action and the pre-commit hooks, read as GitHub and pre-commit read them, and their commands run as they run them. */
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { description: string; default: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Array<{ id: string; shell: string; env: Record<string, string>; run: string; 'working-directory': string }> };
};
const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Array<{ id: string; entry: string; language: string; require_serial: boolean; files: string }>;

const tempDir = () => mkdtempSync(join(tmpdir(), 'td-integrations-'));
const BROKEN = join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl');
const HEALTHY = join(ROOT, 'fixtures', 'pi', 'healthy.jsonl');
const WARNING_ONLY = join(ROOT, 'fixtures', 'pi', 'empty-text-block.jsonl');
const LEGACY = join(ROOT, 'fixtures', 'pi', 'legacy-shapes.jsonl');

const buildStep = action.runs.steps.find((step) => step.id === 'build')!;
const scanStep = action.runs.steps.find((step) => step.id === 'scan')!;

/**
 * Runs the action's scan step the way the runner does: inputs (with their defaults) through the
 * step's env, bash, the action's folder (this repository, built by `npm test`: the build step has
 * nothing to do; scripts/check-integrations.mjs runs both steps in a fresh clone).
 */
function runAction(inputs: Record<string, string>) {
  const step = scanStep;
  const dir = tempDir();
  const output = join(dir, 'github-output');
  writeFileSync(output, '');
  const values = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, inputs[name] ?? input.default]));
  const expression = (text: string) =>
    text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => {
      if (!(name in values)) throw new Error(`action.yml uses an undeclared input ${name}`);
      return values[name]!;
    });
  const env: NodeJS.ProcessEnv = { ...process.env, GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: output, CI: 'true' };
  for (const [name, value] of Object.entries(step!.env)) env[name] = expression(value);
  // The runner resolves working-directory against the workspace: here, the repository.
  const cwd = resolve(ROOT, expression(step!['working-directory']));
  const result = spawnSync(step!.shell, ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', step!.run], { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, outputs: readFileSync(output, 'utf8') };
}

describe('action.yml', () => {
  it('is a composite action whose inputs are all declared, described and used', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual(['cache-dir', 'fail-on', 'paths', 'reporters', 'sarif-file', 'working-directory']);
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description.length, name).toBeGreaterThan(10);
      expect(text, name).toContain(`inputs.${name} }}`);
    }
    // No input is pasted into a script, where a crafted path could run shell.
    for (const step of action.runs.steps) expect(step.run, step.id).not.toMatch(/\$\{\{/);
    expect(action.outputs['sarif-file']!.value).toBe('${{ steps.scan.outputs.sarif-file }}');
  });

  it('runs its own checkout, never a package from a registry', () => {
    expect(action.runs.steps.map((step) => step.id)).toEqual(['build', 'scan']);
    expect(buildStep.run).toBe('bash "$GITHUB_ACTION_PATH/scripts/run-from-checkout.sh" --version');
    expect(scanStep.run).toContain('node "$GITHUB_ACTION_PATH/bin/transcript-doctor.js"');
    for (const step of action.runs.steps) expect(step.run, step.id).not.toMatch(/\bnpx\b|npm (exec|install|i) /);
  });

  it('its build step, on a built checkout, prints the version and builds nothing', () => {
    const result = spawnSync(buildStep.shell, ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', buildStep.run], {
      cwd: tempDir(), env: { ...process.env, GITHUB_ACTION_PATH: ROOT }, encoding: 'utf8', timeout: 60_000,
    });
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect({ code: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('annotates the lines, writes SARIF, and fails on errors by default', () => {
    const sarif = join(tempDir(), 'out.sarif');
    const result = runAction({ paths: `${BROKEN}\n${HEALTHY}\n`, 'sarif-file': sarif });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`^::error file=${BROKEN.replace(/[/.]/g, '\\$&')},line=\\d+,title=missing-tool-result::`, 'm'));
    expect(result.stdout).toContain('problem'); // the stylish summary in the log
    const document = JSON.parse(readFileSync(sarif, 'utf8'));
    expect(document.version).toBe('2.1.0');
    expect(document.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toContain('missing-tool-result');
    expect(result.outputs).toBe(`sarif-file=${sarif}\n`);
  });

  it('fail-on: warning fails on a warning, never never fails, anything else is refused', () => {
    const sarif = join(tempDir(), 'out.sarif');
    expect(runAction({ paths: WARNING_ONLY, 'sarif-file': sarif }).code).toBe(0);
    expect(runAction({ paths: WARNING_ONLY, 'sarif-file': sarif, 'fail-on': 'warning' }).code).toBe(1);
    expect(runAction({ paths: BROKEN, 'sarif-file': sarif, 'fail-on': 'never' }).code).toBe(0);
    const bad = runAction({ paths: BROKEN, 'sarif-file': sarif, 'fail-on': 'sometimes' });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('::error title=transcript-doctor::fail-on must be error, warning or never, not "sometimes"\n');
  });

  it('cache-dir: a cache restored there (actions/cache) knows files a new checkout wrote with the same bytes, and the log is the same', () => {
    const cacheDir = join(tempDir(), 'cache');
    // The same workspace path each run, new files in it (a fresh checkout).
    const dir = join(tempDir(), 'repo');
    const checkout = () => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      for (const file of [BROKEN, HEALTHY]) copyFileSync(file, join(dir, file.split('/').pop()!));
      return dir;
    };
    const run = () => runAction({ paths: '.', 'working-directory': checkout(), 'cache-dir': cacheDir, 'sarif-file': 'td.sarif', reporters: 'json' });
    const first = run();
    const second = run();
    expect(first.code).toBe(1);
    expect(second).toEqual(first);
    // Both files remembered, whichever of the cache's files (by a hash of the path) holds each.
    const remembered = readdirSync(cacheDir).flatMap((file) => Object.keys(JSON.parse(readFileSync(join(cacheDir, file), 'utf8')).entries));
    expect(remembered).toHaveLength(2);
  });

  it('takes several reporters and paths with spaces, relative to the working directory', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'my sessions'));
    copyFileSync(BROKEN, join(dir, 'my sessions', 'a b.jsonl'));
    const result = runAction({ paths: 'my sessions', 'working-directory': dir, reporters: 'json, junit', 'sarif-file': 'td.sarif' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('<testsuites');
    expect(result.stdout).toContain('"path": "my sessions/a b.jsonl"');
    expect(JSON.parse(readFileSync(join(dir, 'td.sarif'), 'utf8')).runs[0].results.length).toBeGreaterThan(0);
  });
});

describe('.pre-commit-hooks.yaml', () => {
  /** pre-commit runs a script hook's `entry` from its clone of the repository (here, this built one), with the staged files that match `files` appended. */
  function runHook(id: string, staged: string[]) {
    const hook = hooks.find((candidate) => candidate.id === id)!;
    const [script, ...args] = hook.entry.split(' ');
    const files = staged.filter((file) => new RegExp(hook.files).test(file));
    const result = spawnSync(join(ROOT, script!), [...args, ...files], { cwd: tempDir(), env: { ...process.env, CI: '1' }, encoding: 'utf8', timeout: 60_000 });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr, files };
  }

  it('declares scan and canonicalize --check on *.jsonl, as serial script hooks of this checkout', () => {
    expect(hooks.map((hook) => [hook.id, hook.entry, hook.language, hook.require_serial])).toEqual([
      ['transcript-doctor', 'scripts/run-from-checkout.sh scan', 'script', true],
      ['transcript-doctor-canonicalize', 'scripts/run-from-checkout.sh canonicalize --check', 'script', true],
    ]);
    for (const hook of hooks) {
      const files = new RegExp(hook.files);
      expect(['a.jsonl', 'dir/b c.jsonl'].every((name) => files.test(name))).toBe(true);
      expect(['a.json', 'a.jsonl.bak-1', 'jsonl/readme.md'].some((name) => files.test(name))).toBe(false);
    }
  });

  it('scan fails a commit that stages a broken transcript, and passes a healthy one', () => {
    expect(runHook('transcript-doctor', [HEALTHY, join(ROOT, 'package.json')])).toMatchObject({ code: 0, files: [HEALTHY] });
    const broken = runHook('transcript-doctor', [HEALTHY, BROKEN]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('missing-tool-result');
  });

  it('canonicalize --check fails on legacy shapes and passes canonical files', () => {
    expect(runHook('transcript-doctor-canonicalize', [HEALTHY]).code).toBe(0);
    const legacy = runHook('transcript-doctor-canonicalize', [LEGACY, HEALTHY]);
    expect(legacy.code).toBe(1);
    expect(legacy.stdout).toContain('non-canonical');
  });
});

describe('scripts/run-from-checkout.sh', () => {
  /**
   * A checkout with the real script and a stand-in npm on the PATH: `npm ci` logs itself and, when
   * given a GATE file, waits for it (10 s at most); `npm run build` writes the bundle unless told
   * to fail; the CLI only echoes its arguments.
   */
  function fakeCheckout() {
    const dir = tempDir();
    mkdirSync(join(dir, 'scripts'));
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'fake-bin'));
    copyFileSync(join(ROOT, 'scripts', 'run-from-checkout.sh'), join(dir, 'scripts', 'run-from-checkout.sh'));
    chmodSync(join(dir, 'scripts', 'run-from-checkout.sh'), 0o755);
    writeFileSync(join(dir, 'bin', 'transcript-doctor.js'), "console.log('cli', process.argv.slice(2).join(' '));\n");
    const npm = join(dir, 'fake-bin', 'npm');
    writeFileSync(npm, [
      '#!/bin/sh',
      'echo "npm $*" >> "$NPM_LOG"',
      'if [ "$1" = ci ] && [ -n "$GATE" ]; then',
      '  i=0; while [ ! -f "$GATE" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done',
      'fi',
      'if [ "$1" = run ]; then',
      '  [ -n "$FAIL_BUILD" ] && { mkdir -p dist/bundle; echo half > dist/bundle/cli.cjs; exit 1; }',
      '  mkdir -p dist/bundle && echo built > dist/bundle/cli.cjs',
      'fi',
      '',
    ].join('\n'));
    chmodSync(npm, 0o755);
    const env = { ...process.env, PATH: `${join(dir, 'fake-bin')}:${process.env.PATH}`, NPM_LOG: join(dir, 'npm.log') };
    return { dir, env, script: join(dir, 'scripts', 'run-from-checkout.sh') };
  }

  function runScript(script: string, env: NodeJS.ProcessEnv, args: string[]) {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(script, args, { env, cwd: tempDir() });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
  }

  it('builds an unbuilt checkout once from its lock file, holding a lock others wait on, then runs the CLI', async () => {
    const { dir, env, script } = fakeCheckout();
    const gated = { ...env, GATE: join(dir, 'gate') };
    const first = runScript(script, gated, ['scan', 'a b.jsonl']);
    const log = join(dir, 'npm.log');
    for (let tries = 0; tries < 200 && !(existsSync(log) && readFileSync(log, 'utf8').includes('npm ci')); tries++) await new Promise((wait) => setTimeout(wait, 50));
    // The first run is inside `npm ci`: the build lock is taken, so a second run waits instead of building too.
    expect(spawnSync('flock', ['--nonblock', join(dir, 'dist', '.build-lock'), 'true']).status).toBe(1);
    const second = runScript(script, gated, ['--version']);
    writeFileSync(join(dir, 'gate'), '');
    const results = await Promise.all([first, second]);
    expect(results.map((result) => [result.code, result.stdout])).toEqual([[0, 'cli scan a b.jsonl\n'], [0, 'cli --version\n']]);
    expect(readFileSync(log, 'utf8')).toBe('npm ci --include=dev --ignore-scripts --no-audit --no-fund --loglevel=error\nnpm run --silent build\n');
    expect(results.map((result) => result.stderr)).toEqual([`transcript-doctor: building ${dir} (once per checkout)\n`, '']);
    const again = await runScript(script, env, ['--version']);
    expect(again).toEqual({ code: 0, stdout: 'cli --version\n', stderr: '' });
    expect(readFileSync(log, 'utf8').split('\n').length).toBe(3); // no second build
  });

  it('a failed build exits 2 with one line and leaves no half-built dist/ behind', async () => {
    const { dir, env, script } = fakeCheckout();
    const result = await runScript(script, { ...env, FAIL_BUILD: '1' }, ['--version']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n').at(-1)).toBe(`transcript-doctor: building ${dir} failed (it needs Node 20 or newer and npm)`);
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });
});
