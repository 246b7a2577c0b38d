import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'copilot-cli');
const SESSION = '7c1e9b42-3d5a-4f86-b0e1-2a9c4d6e8f10';

/** A Copilot home (`~/.copilot` or `$COPILOT_HOME`) holding one session, filed as the client files it. */
function copilotHome(fixture: string): { root: string; file: string } {
  const root = mkdtempSync(join(tmpdir(), 'td-copilot-home-'));
  const folder = join(root, 'session-state', SESSION);
  mkdirSync(folder, { recursive: true });
  copyFileSync(join(DIR, fixture), join(folder, 'events.jsonl'));
  return { root, file: join(folder, 'events.jsonl') };
}

describe('Copilot CLI on the command line', () => {
  it('scan with no paths searches ~/.copilot/session-state, and an unanswered call to a Claude model exits 1 with Anthropic’s words', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-home-'));
    const { file } = copilotHome('missing-tool-result.jsonl');
    mkdirSync(join(home, '.copilot'));
    const moved = join(home, '.copilot', 'session-state', SESSION);
    mkdirSync(moved, { recursive: true });
    copyFileSync(file, join(moved, 'events.jsonl'));
    const result = await runCli(['scan', '-r', 'json'], { env: { HOME: home, COPILOT_HOME: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Searching ${join(home, '.copilot', 'session-state')}`);
    const report = JSON.parse(result.stdout);
    expect(report.files.map((f: { format: string }) => f.format)).toEqual(['copilot-cli']);
    expect(report.files[0].findings.map((f: { line: number; rule: string; providerError: string }) => `${f.line} ${f.rule} ${f.providerError.split(':')[0]}`)).toEqual(['15 missing-tool-result Anthropic']);
  });

  it('follows $COPILOT_HOME, and healthy sessions (one with interleaved sub-agents) exit 0', async () => {
    for (const fixture of ['healthy.jsonl', 'subagents-interleaved.jsonl']) {
      const { root } = copilotHome(fixture);
      const result = await runCli(['scan', '-r', 'json'], { env: { HOME: mkdtempSync(join(tmpdir(), 'td-home-')), COPILOT_HOME: root } });
      expect(result.code, fixture).toBe(0);
      expect(JSON.parse(result.stdout).files, fixture).toHaveLength(1);
    }
  });

  it('--agent copilot-cli reads a file no line of which tells its format', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-copilot-')), 'log.jsonl');
    // An event that lost its data and a torn one: nothing unmistakable, nothing in Copilot's shape, and not where it keeps sessions.
    writeFileSync(file, '{"type":"session.shutdown"}\n{"type":"user.message","data":{"content":"hi"},"id":"4b2d');
    const detected = JSON.parse((await runCli(['scan', '-r', 'json', file])).stdout);
    expect(detected.files[0].format).toBeNull();
    const named = await runCli(['scan', '-r', 'json', '--agent', 'copilot-cli', file]);
    expect(JSON.parse(named.stdout).files[0]).toMatchObject({ format: 'copilot-cli' });
  });

  it('repair --in-place mends the three-line record (#2649), the NUL tail (#2217) and the torn event (#1864) back to whole events', async () => {
    const healthyStart = readFileSync(join(DIR, 'nul-bytes.jsonl'), 'utf8').replace(/\0+$/, '');
    for (const fixture of ['split-record.jsonl', 'nul-bytes.jsonl', 'torn-final-line.jsonl']) {
      const { file } = copilotHome(fixture);
      const result = await runCli(['repair', '--in-place', file]);
      expect(result.code, `${fixture}: ${result.stderr}`).toBe(0);
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(healthyStart), fixture).toBe(true);
      for (const line of text.trimEnd().split('\n')) expect(() => JSON.parse(line), fixture).not.toThrow();
      expect((await runCli(['scan', file])).code, fixture).toBe(0);
    }
  });

  it('explain takes the desktop app’s and the CLI’s wording (`Execution failed:` and `CAPIError: 400` before, `(Request ID: …)` after) to the session and the line', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-home-'));
    const folder = join(home, '.copilot', 'session-state', SESSION);
    mkdirSync(folder, { recursive: true });
    copyFileSync(join(DIR, 'missing-tool-result.jsonl'), join(folder, 'events.jsonl'));
    const error =
      'Execution failed: CAPIError: 400 messages.4: `tool_use` ids were found without `tool_result` blocks immediately after: call_2_0_0. Each `tool_use` block must have a corresponding `tool_result` block in the next message. (Request ID: C2A4:3F1E:1B2C3D:4E5F60:6745A1B2)';
    const result = await runCli(['explain', error], { env: { HOME: home, COPILOT_HOME: '' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`session  ${join(folder, 'events.jsonl')}  (copilot-cli)`);
    expect(result.stdout).toMatch(/line {5}15 {2}at \/data\/toolRequests\/0/);
  });
});
