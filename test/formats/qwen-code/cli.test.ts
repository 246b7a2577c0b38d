import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'qwen-code');
const SESSION = '7c3e9a52-4b1d-4f6a-9e08-2d5b71c4a9e3.jsonl';

/** A Qwen runtime folder holding one session where Qwen Code files it: projects/<sanitised cwd>/chats/<id>.jsonl. */
function runtimeWith(fixture: string): string {
  const runtime = mkdtempSync(join(tmpdir(), 'td-qwen-'));
  mkdirSync(join(runtime, 'projects', '-work-demo-app', 'chats'), { recursive: true });
  copyFileSync(join(DIR, fixture), join(runtime, 'projects', '-work-demo-app', 'chats', SESSION));
  return runtime;
}

function findings(stdout: string): string[] {
  return JSON.parse(stdout).files.flatMap((file: { findings: Array<{ line: number; rule: string }> }) => file.findings.map((f) => `${f.line} ${f.rule}`));
}

describe('Qwen Code on the command line', () => {
  it('scan with no paths searches ~/.qwen/projects', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-home-'));
    // Outside projects/: not a session, not searched.
    mkdirSync(join(home, '.qwen'));
    copyFileSync(join(DIR, 'missing-tool-result.jsonl'), join(home, '.qwen', 'elsewhere.jsonl'));
    const projects = join(home, '.qwen', 'projects');
    mkdirSync(join(projects, '-work-demo-app', 'chats'), { recursive: true });
    copyFileSync(join(DIR, 'missing-tool-result.jsonl'), join(projects, '-work-demo-app', 'chats', SESSION));
    const result = await runCli(['scan', '-r', 'json'], { env: { HOME: home, QWEN_HOME: '', QWEN_RUNTIME_DIR: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Searching ${projects}`);
    expect(JSON.parse(result.stdout).files.map((file: { format: string }) => file.format)).toEqual(['qwen-code']);
    expect(findings(result.stdout)).toEqual(['3 missing-tool-result']);
  });

  it('follows $QWEN_HOME, and $QWEN_RUNTIME_DIR before it, as Qwen Code does', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-home-'));
    const moved = runtimeWith('unknown-parent.jsonl');
    const runtime = runtimeWith('healthy.jsonl');
    const byHome = await runCli(['scan', '-r', 'json'], { env: { HOME: home, QWEN_HOME: moved, QWEN_RUNTIME_DIR: '' } });
    expect(byHome.stderr).toContain(join(moved, 'projects'));
    expect(findings(byHome.stdout)).toEqual(['6 unknown-parent']);
    const byRuntime = await runCli(['scan', '-r', 'json'], { env: { HOME: home, QWEN_HOME: moved, QWEN_RUNTIME_DIR: runtime } });
    expect(byRuntime.code).toBe(0);
    expect(byRuntime.stderr).toContain(join(runtime, 'projects'));
    expect(byRuntime.stderr).not.toContain(moved);
  });

  it('expands a leading ~ in $QWEN_HOME, as Qwen Code does', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-home-'));
    const projects = join(home, 'qwen-state', 'projects');
    mkdirSync(join(projects, '-work-demo-app', 'chats'), { recursive: true });
    copyFileSync(join(DIR, 'missing-tool-result.jsonl'), join(projects, '-work-demo-app', 'chats', SESSION));
    const result = await runCli(['scan', '-r', 'json'], { env: { HOME: home, QWEN_HOME: '~/qwen-state', QWEN_RUNTIME_DIR: '' } });
    expect(result.stderr).toContain(`Searching ${projects}`);
    expect(findings(result.stdout)).toEqual(['3 missing-tool-result']);
  });

  it('--agent qwen-code is accepted by scan, repair and canonicalize', async () => {
    const scan = await runCli(['scan', '--agent', 'qwen-code', join(DIR, 'healthy.jsonl')]);
    expect(scan.code).toBe(0);
    expect(scan.stderr).toBe('');
    const out = join(mkdtempSync(join(tmpdir(), 'td-qwen-')), 'out.jsonl');
    const canonical = await runCli(['canonicalize', '--agent', 'qwen-code', join(DIR, 'healthy.jsonl'), '--out', out]);
    expect(canonical.code).toBe(0);
    expect(canonical.stdout).toContain('nothing to canonicalize for qwen-code');
    const repair = await runCli(['repair', '--agent', 'qwen-code', join(DIR, 'missing-tool-result.jsonl'), '--out', out]);
    expect(repair.code).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(5);
  });

  it('repair --in-place keeps a backup and leaves a healthy session byte for byte', async () => {
    const runtime = runtimeWith('missing-tool-result.jsonl');
    const file = join(runtime, 'projects', '-work-demo-app', 'chats', SESSION);
    const before = readFileSync(file);
    const result = await runCli(['repair', '--in-place', '--mode', 'synthetic', file]);
    expect(result.code).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(before.subarray(0, before.indexOf('\n', before.indexOf('call_1_0_0')) + 1).toString())).toBe(true);
    expect(after).toContain('"type":"tool_result"');
    expect(readdirSync(dirname(file)).filter((name) => name.startsWith(`${SESSION}.bak-`))).toHaveLength(1);
    const healthy = join(mkdtempSync(join(tmpdir(), 'td-qwen-')), SESSION);
    writeFileSync(healthy, readFileSync(join(DIR, 'healthy.jsonl')));
    const untouched = await runCli(['repair', '--in-place', healthy]);
    expect(untouched.code).toBe(0);
    expect(readFileSync(healthy)).toEqual(readFileSync(join(DIR, 'healthy.jsonl')));
  });
});
