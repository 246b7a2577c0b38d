import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { longText } from './slim-session.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A Claude Code session over a 60k target whose lines carry no time, so a new record has none to copy. */
function untimedSession(turns: number): string {
  const lines: Array<Record<string, unknown>> = [];
  let parent: string | null = null;
  const push = (line: Record<string, unknown>) => {
    const id = uuid(lines.length + 1);
    lines.push({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/workspace/demo', sessionId: 'untimed', version: '2.1.328', ...line, uuid: id });
    parent = id;
  };
  for (let t = 0; t < turns; t++) {
    push({ type: 'user', message: { role: 'user', content: `request ${t}: look at part ${t}` } });
    push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: `msg_${t}a`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${t}`, name: 'Read', input: { file_path: `/workspace/demo/part-${t}.ts` } }], stop_reason: 'tool_use' } });
    push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${t}`, content: longText(1000, `t${t}`) }] } });
    push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: `msg_${t}b`, type: 'message', role: 'assistant', content: [{ type: 'text', text: `answer ${t}` }], stop_reason: 'end_turn' } });
  }
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

describe('slim stamps a record it writes after an untimed line with the source file mtime', () => {
  it('writes the same bytes on every run, the new records timed at the file mtime', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'td-slim-time-'));
    const input = join(folder, 'session.jsonl');
    writeFileSync(input, untimedSession(16));
    const mtime = new Date(Date.UTC(2026, 2, 4, 5, 6, 7));
    utimesSync(input, mtime, mtime);
    const run = async (out: string) => {
      const result = await runCli(['slim', input, '--target', '60000', '--out', join(folder, out)]);
      expect(result.code, result.stderr).toBe(0);
      return readFileSync(join(folder, out), 'utf8');
    };
    const first = await run('first.jsonl');
    await new Promise((done) => setTimeout(done, 20));
    const second = await run('second.jsonl');
    expect(second).toBe(first);
    const written = first.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const boundary = written.find((line) => line.subtype === 'compact_boundary');
    expect(boundary?.timestamp).toBe(mtime.toISOString());
  });
});
