import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { likelyFormat } from '../../src/formats/registry.js';
import { loadTranscriptFile } from '../../src/pipeline/load-file.js';
import { scanFile } from '../../src/pipeline/scan.js';
import { repairText } from '../helpers/repair-tester.js';

/** A Claude Code prompt written without its links, as another tool's copy of a session holds it. */
const LINKLESS = JSON.stringify({ type: 'user', message: { role: 'user', content: 'Fix the parser' }, timestamp: '2026-05-24T09:00:00.000Z' });
/** A line that parses but has no format's shape. */
const STRAY = JSON.stringify({ note: 'x' });
const TORN = '{"parentUuid":"c0de0001","isSidechain":false,"type":"assistant","message":{"role":"assis';
/** Broken lines around one that parses and looks like no format's line. */
const DAMAGED = [TORN, STRAY, '{bad json: missing closing quote}', TORN].join('\n') + '\n';

function fileAt(relative: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'detect-')), relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe('detecting a small damaged file', () => {
  it('takes the format of the folder its agent keeps sessions in, whatever the home folder', () => {
    for (const [path, format] of [
      ['/home/ana/.claude/projects/-work-app/5d2c8a41.jsonl', 'claude-code'],
      ['C:\\Users\\ana\\.claude\\projects\\app\\subagents\\agent-1.jsonl', 'claude-code'],
      ['/srv/x/.codex/sessions/2026/06/19/rollout-2026-06-19T10-14-27-019e.jsonl', 'codex'],
      ['/srv/x/.codex/archived_sessions/rollout-2026-06-19T10-14-27-019e.jsonl', 'codex'],
      ['/root/.openclaw/agents/main/sessions/1f979e30.jsonl', 'pi'],
      ['/root/.pi/agent/sessions/--work--/2026-01-15_abc.jsonl', 'pi'],
      ['/home/ana/.qwen/projects/-home-ana-app/chats/b240ef91-0eb7-419f-b81e-84cb6e968ee8.jsonl', 'qwen-code'],
    ] as const) {
      expect(likelyFormat([], path)?.name, path).toBe(format);
    }
    for (const path of ['/home/ana/projects/app/5d2c8a41.jsonl', '/srv/x/.codex/sessions/2026/06/19/notes.jsonl', '/root/.openclaw/agents/main/notes/a.jsonl', '/home/ana/.qwen/projects/app/notes.jsonl']) {
      expect(likelyFormat([], path), path).toBeUndefined();
    }
  });

  it('else takes the one format a line that parses resembles, and none when no line or two formats fit', () => {
    expect(likelyFormat([JSON.parse(LINKLESS)], undefined)?.name).toBe('claude-code');
    expect(likelyFormat([{ type: 'response_item', payload: { type: 'message' } }], undefined)?.name).toBe('codex');
    expect(likelyFormat([{ type: 'user', message: { role: 'user', parts: [{ text: 'Fix the parser' }] } }], undefined)?.name).toBe('qwen-code');
    expect(likelyFormat([JSON.parse(STRAY)], undefined)).toBeUndefined();
    expect(likelyFormat([JSON.parse(LINKLESS), { type: 'event_msg', payload: {} }], undefined)).toBeUndefined();
  });

  it('a damaged file under ~/.claude/projects is checked as Claude Code, the same file elsewhere is not', async () => {
    const home = fileAt('home/.claude/projects/-work-app/5d2c8a41.jsonl', DAMAGED);
    expect((await loadTranscriptFile(home)).format).toBe('claude-code');
    const report = await scanFile(home);
    expect(report.format).toBe('claude-code');
    expect(report.findings.map((f) => `${f.line} ${f.rule}`)).toEqual(['1 invalid-json', '3 invalid-json', '4 invalid-json']);

    const elsewhere = await scanFile(fileAt('notes/5d2c8a41.jsonl', DAMAGED));
    expect(elsewhere.format).toBeNull();
    expect(elsewhere.findings.find((f) => f.rule === 'unknown-format')?.message).toBe(
      'No line looks like an entry of a format transcript-doctor knows (tried: pi, claude-code, qwen-code, codex, gemini-cli, copilot-cli, requests), and the file is not where one of their agents keeps its sessions; the file was not checked.',
    );
  });

  it('repair drops the broken lines of a short file whose one readable line resembles Claude Code, keeping that line', async () => {
    const text = [TORN, LINKLESS, '{this is not valid json at all}', LINKLESS.replace('Fix the parser', 'and run the tests')].join('\n') + '\n';
    const { output, report } = await repairText(text);
    expect(report.format).toBe('claude-code');
    expect(output).toBe([LINKLESS, LINKLESS.replace('Fix the parser', 'and run the tests')].join('\n') + '\n');
  });

  it('leaves a file alone when nothing in it parses, wherever it lives', async () => {
    const report = await scanFile(fileAt('home/.claude/projects/app/x.jsonl', `${TORN}\n{bad}\n`));
    expect(report.format).toBeNull();
  });
});

describe('a Qwen Code session (Claude Code envelope, Gemini message) is taken for Qwen Code, not Claude Code', () => {
  const envelope = { sessionId: 'b240ef91', cwd: '/work', version: '0.24.4' };
  const lines = [
    { uuid: 'q1', parentUuid: null, timestamp: '2026-11-26T06:21:51.957Z', type: 'user', ...envelope, message: { role: 'user', parts: [{ text: 'List the files' }] } },
    { uuid: 'q2', parentUuid: 'q1', timestamp: '2026-11-26T06:21:51.962Z', type: 'system', subtype: 'ui_telemetry', ...envelope, systemPayload: {} },
    { uuid: 'q3', parentUuid: 'q2', timestamp: '2026-11-26T06:21:53.000Z', type: 'assistant', ...envelope, message: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'ls', args: {} } }] } },
  ].map((line) => JSON.stringify(line));

  it('is detected as Qwen Code, and repair writes Qwen Code records, not Claude Code lines', async () => {
    const text = lines.map((line) => `${line}\n`).join('');
    const { output, report } = await repairText(text, 'synthetic');
    expect(report.format).toBe('qwen-code');
    expect(output.startsWith(text)).toBe(true);
    const added = JSON.parse(output.slice(text.length));
    expect(added).toMatchObject({ parentUuid: 'q3', sessionId: 'b240ef91', type: 'tool_result', message: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'ls' } }] } });
    expect(added).not.toHaveProperty('toolUseResult');
  });
});
