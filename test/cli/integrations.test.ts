import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
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
    expect(Object.keys(action.inputs).sort()).toEqual(['fail-on', 'paths', 'reporters', 'sarif-file', 'working-directory']);
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
    expect(buildStep.run).toBe('"$GITHUB_ACTION_PATH/scripts/run-from-checkout.sh" --version');
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
