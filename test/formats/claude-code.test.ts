import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { claudeCodeFormat } from '../../src/formats/claude-code/index.js';
import { analyze } from '../../src/model/analysis.js';
import { loadTranscript } from '../../src/pipeline/load-transcript.js';
import { scanFile } from '../../src/pipeline/scan.js';
import { repairText } from '../helpers/repair-tester.js';

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-code');

async function load(name: string) {
  return loadTranscript(Readable.from([readFileSync(join(DIR, name))]));
}

describe('Claude Code format', () => {
  it('is detected from its own line shapes, not from pi lines', () => {
    expect(claudeCodeFormat.detect({ type: 'summary', summary: 'x', leafUuid: 'y' })).toBe(true);
    expect(claudeCodeFormat.detect({ type: 'user', uuid: 'u', parentUuid: null, message: { role: 'user', content: 'hi' } })).toBe(true);
    expect(claudeCodeFormat.detect({ type: 'message', id: 'a', parentId: null, message: { role: 'user' } })).toBe(false);
    expect(claudeCodeFormat.detect({ type: 'session', id: 'x' })).toBe(false);
  });

  it('decodes responses written over several lines into one group, and results inside user lines', async () => {
    const transcript = await load('healthy.jsonl');
    expect(transcript.format).toBe('claude-code');
    const lines = transcript.entries.toArray().map((e) => `${e.line} ${e.kind} ${e.role ?? '-'} ${e.group ?? '-'} ${e.toolCalls?.map((c) => c.id).join(',') ?? ''}${e.toolResults?.map((r) => r.callId).join(',') ?? ''}`);
    expect(lines).toEqual([
      '1 unknown - - ',
      '2 message user - ',
      '3 unknown - - ',
      '4 message assistant msg_01HealthyTurnA ',
      '5 message assistant msg_01HealthyTurnA toolu_01ParallelOneAAAAAAAAAA',
      '6 message assistant msg_01HealthyTurnA toolu_01ParallelTwoBBBBBBBBBB',
      '7 message toolResult - toolu_01ParallelOneAAAAAAAAAA',
      '8 message toolResult - toolu_01ParallelTwoBBBBBBBBBB',
      '9 message assistant msg_01HealthyTurnB ',
    ]);
    expect(transcript.entries.at(3).signedThinking).toBe(true);
  });

  it('replays a parallel result that hangs beside the path, after the response it answers', async () => {
    const analysis = analyze(await load('healthy.jsonl'));
    expect(analysis.tree.replayPath.map((i) => analysis.entries.at(i).line)).toEqual([2, 4, 5, 6, 8, 9]);
    const { context } = analysis.replay;
    expect([...context].map((e, at) => `${e.line}:${context.messageIndex[at]}`)).toEqual(['2:0', '4:1', '5:1', '6:1', '7:2', '8:2', '9:3']);
    expect(analysis.status(6)).toBe('replayed');
  });

  it('keeps the oldest copy of a duplicated uuid (resumed sessions copy lines)', async () => {
    const healthy = readFileSync(join(DIR, 'healthy.jsonl'), 'utf8').trimEnd().split('\n');
    const copy = JSON.parse(healthy[1]!);
    copy.message.content = 'a copied prompt';
    const transcript = await loadTranscript(Readable.from([Buffer.from([...healthy, JSON.stringify(copy)].join('\n') + '\n')]));
    expect(analyze(transcript).tree.byId.get(copy.uuid)).toBe(1);
  });

  it('every fixture shows exactly its problem, healthy shows none', async () => {
    for (const name of readdirSync(DIR)) {
      const report = await scanFile(join(DIR, name));
      // An ending Claude Code answers itself is information (test/formats/claude-code-verdicts.test.ts).
      const rules = [...new Set(report.findings.filter((f) => f.rule !== 'unanswered-final-turn').map((f) => f.rule))];
      expect(rules, name).toEqual(name === 'healthy.jsonl' ? [] : [name.replace('.jsonl', '')]);
    }
  });

  it('accepts a server tool pair inside one message and reports the result whose call is on another branch', async () => {
    const text = readFileSync(join(DIR, 'orphan-server-tool-result.jsonl'), 'utf8');
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line));
    // Put the call back on the replayed path: the text line follows it again.
    lines[2].parentUuid = lines[1].uuid;
    const file = join(mkdtempSync(join(tmpdir(), 'td-cc-')), 'paired.jsonl');
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    expect((await scanFile(file)).findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const broken = await scanFile(join(DIR, 'orphan-server-tool-result.jsonl'));
    expect(broken.findings.filter((f) => f.severity !== 'info').map((f) => `${f.line} ${f.rule}`)).toEqual(['4 orphan-server-tool-result']);
    expect(broken.findings[0]!.providerError).toContain('messages.1.content.1: unexpected `tool_use_id` found in `advisor_tool_result` blocks');
  });

  it('quotes the Anthropic error with the index counted on merged messages', async () => {
    const report = await scanFile(join(DIR, 'missing-tool-result.jsonl'));
    expect(report.findings[0]!.providerError).toMatch(/^Anthropic: messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01NeverAnsweredCCCCCCCC\./);
  });
});

/** Each line as `type uuid<-parentUuid [tool ids]`, to compare repaired shapes compactly. */
function shape(lines: Array<Record<string, any>>): string[] {
  return lines.map((line) => {
    const content = Array.isArray(line.message?.content) ? line.message.content : [];
    const ids = content.filter((b: any) => b.type === 'tool_use' || b.type === 'tool_result').map((b: any) => `${b.type}:${b.id ?? b.tool_use_id}`);
    return `${line.type} ${String(line.uuid).slice(-2)}<-${String(line.parentUuid).slice(-2)}${ids.length ? ` ${ids.join(',')}` : ''}`;
  });
}

describe('Claude Code repair', () => {
  const fixture = (name: string) => readFileSync(join(DIR, name));

  it('discard drops the unanswered tool_use line and links the next line to its parent', async () => {
    const before = fixture('missing-tool-result.jsonl').toString('utf8').trimEnd().split('\n');
    const { lines, output } = await repairText(fixture('missing-tool-result.jsonl'));
    expect(lines).toHaveLength(before.length - 1);
    expect(output).not.toContain('toolu_01NeverAnsweredCCCCCCCC');
    expect(lines[1]!.parentUuid).toBe(lines[0]!.uuid);
    // Only parentUuid changed on the relinked line: every other field is kept as written.
    expect({ ...lines[1], parentUuid: null }).toEqual({ ...JSON.parse(before[2]!), parentUuid: null });
  });

  it('synthetic answers the call with a user tool_result line after the response and re-parents what followed', async () => {
    const { lines } = await repairText(fixture('missing-tool-result.jsonl'), 'synthetic');
    const at = lines.findIndex((line) => line.message?.content?.[0]?.type === 'tool_result');
    const result = lines[at]!;
    expect(lines[at - 1]!.message.content.some((b: any) => b.id === 'toolu_01NeverAnsweredCCCCCCCC')).toBe(true);
    expect(result).toMatchObject({ type: 'user', parentUuid: lines[at - 1]!.uuid, sessionId: lines[0]!.sessionId, message: { role: 'user' } });
    expect(result.message.content[0]).toMatchObject({ tool_use_id: 'toolu_01NeverAnsweredCCCCCCCC', is_error: true });
    expect(result.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(lines[at + 1]!.parentUuid).toBe(result.uuid);
  });

  it('drops a turn with signed thinking whole, every line it was written over, with the results it got', async () => {
    const healthy = fixture('healthy.jsonl').toString('utf8').trimEnd().split('\n');
    // Line 7 answered the first parallel call; without it the turn that started with signed thinking is broken.
    const broken = [...healthy.slice(0, 6), ...healthy.slice(7)].join('\n') + '\n';
    const { lines, report } = await repairText(broken);
    expect(lines.map((line) => line.type)).toEqual(['summary', 'user', 'file-history-snapshot', 'assistant']);
    expect(lines.some((line) => line.message?.content?.some?.((b: any) => b.type === 'thinking' || b.type === 'tool_use' || b.type === 'tool_result'))).toBe(false);
    expect(lines.at(-1)!.parentUuid).toBe(JSON.parse(healthy[1]!).uuid);
    expect(report.repair).toMatchObject({ counts: { droppedAssistantMessages: 1, droppedToolCalls: 1, droppedOrphans: 1 } });
  });

  it('removes an orphan result line and keeps the chain whole', async () => {
    const { lines, output } = await repairText(fixture('orphan-tool-result.jsonl'));
    expect(shape(lines).join('\n')).not.toMatch(/tool_result/);
    expect(lines.every((line, i) => i === 0 || line.parentUuid === lines[i - 1]!.uuid)).toBe(true);
    expect(output.split('\n').length).toBe(fixture('orphan-tool-result.jsonl').toString('utf8').split('\n').length - 1);
  });

  it('moves tool_result blocks to the front of the user message', async () => {
    const { lines } = await repairText(fixture('tool-result-not-first.jsonl'));
    const user = lines.find((line) => line.message?.content?.some?.((b: any) => b.type === 'tool_result'))!;
    const types = user.message.content.map((b: any) => b.type);
    expect(types[0]).toBe('tool_result');
    expect(types.lastIndexOf('tool_result')).toBeLessThan(types.findIndex((t: string) => t !== 'tool_result'));
  });

  it('leaves every fixture clean except what only a person can decide, and a second repair changes nothing', async () => {
    for (const name of readdirSync(DIR)) {
      const once = await repairText(fixture(name), 'synthetic');
      const twice = await repairText(once.output, 'synthetic');
      expect(twice.output, name).toBe(once.output);
      const file = join(mkdtempSync(join(tmpdir(), 'td-cc-')), name);
      writeFileSync(file, once.output);
      const left = new Set((await scanFile(file)).findings.map((f) => f.rule));
      for (const rule of ['duplicate-tool-call-id', 'lost-logical-parent']) left.delete(rule);
      expect([...left], name).toEqual([]);
      if (name === 'healthy.jsonl') expect(once.output, name).toBe(fixture(name).toString('utf8'));
    }
  });
});

describe('Claude Code on the command line', async () => {
  const { runCli } = await import('../cli/run-cli.js');
  it('--agent overrides detection', async () => {
    const detected = JSON.parse((await runCli(['scan', 'fixtures/claude-code/missing-tool-result.jsonl', '-r', 'json'])).stdout);
    const forced = JSON.parse((await runCli(['scan', 'fixtures/claude-code/missing-tool-result.jsonl', '--agent', 'pi', '-r', 'json'])).stdout);
    expect(detected.files[0].format).toBe('claude-code');
    expect(forced.files[0].format).toBe('pi');
  });

  it('scans ~/.claude/projects by default', async () => {
    const { mkdtempSync, mkdirSync, copyFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const home = mkdtempSync(join(tmpdir(), 'td-home-'));
    mkdirSync(join(home, '.claude', 'projects', '-workspace-demo'), { recursive: true });
    copyFileSync(join(DIR, 'missing-tool-result.jsonl'), join(home, '.claude', 'projects', '-workspace-demo', 's.jsonl'));
    const result = await runCli(['scan', '-r', 'json'], { env: { HOME: home } });
    expect(result.stderr).toContain(join(home, '.claude', 'projects'));
    expect(JSON.parse(result.stdout).files[0].findings[0].rule).toBe('missing-tool-result');
  });
});
