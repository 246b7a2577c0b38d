import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scan } from '../../src/api/scan.js';
import { openSessionWriter, type AbortMode, type SessionWriterEvent } from '../../src/session-writer/session-writer.js';
import { pairingOf, sessionLines, type SessionLines } from './lines.mjs';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');

/** Every format the writer takes (one session per file). */
const WRITABLE = ['pi', 'claude-code', 'qwen-code', 'codex', 'gemini-cli', 'copilot-cli'] as const;
/** Those whose lines the test builders write. */
const BUILT = ['pi', 'claude-code', 'qwen-code', 'codex', 'copilot-cli'] as const;

/** The repo's fixtures of those formats that the scanner finds no error in. */
const CLEAN_FIXTURES: Array<readonly [string, string]> = [];
for (const format of WRITABLE) {
  for (const name of readdirSync(join(FIXTURES, format)).filter((file) => file.endsWith('.jsonl'))) {
    if ((await errors(join(FIXTURES, format, name), format)).length === 0) CLEAN_FIXTURES.push([format, name]);
  }
}

interface Written {
  text: string;
  events: SessionWriterEvent[];
  /** What each line on disk is: call:<ids>, result:<ids>, or other. */
  shapes: string[];
}

/** Appends `lines` (values or JSON text) one by one in a new file, then closes; `during` runs after each append. */
async function written(format: string, lines: unknown[], options: { abortMode?: AbortMode; abortAfter?: number } = {}): Promise<Written & { file: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'td-writer-edge-')), 'session.jsonl');
  const events: SessionWriterEvent[] = [];
  const writer = await openSessionWriter(file, { format, abortMode: options.abortMode, onEvent: (event) => events.push(event) });
  for (const [i, line] of lines.entries()) {
    await writer.append(line);
    if (i + 1 === options.abortAfter) await writer.abort('abort');
  }
  await writer.close();
  const text = readFileSync(file, 'utf8');
  const shapes = text.split('\n').filter(Boolean).map((raw) => {
    const { calls, results } = pairingOf(format, JSON.parse(raw));
    return calls.length > 0 ? `call:${calls.join(',')}` : results.length > 0 ? `result:${results.join(',')}` : 'other';
  });
  return { file, text, events, shapes };
}

/** The scanner's findings, as `rule` or `rule:line`. */
async function findings(file: string, format: string, where = false): Promise<string[]> {
  const report = await scan(file, { format, jobs: 1 });
  return report.files.flatMap((entry) => entry.findings.map((finding) => (where ? `${finding.rule}:${finding.line}` : finding.rule))).sort();
}

async function errors(file: string, format: string): Promise<string[]> {
  const report = await scan(file, { format, jobs: 1 });
  return report.files.flatMap((entry) => entry.findings.filter((finding) => finding.severity === 'error').map((finding) => `${finding.rule}:${finding.line}`));
}

const jsonl = (lines: unknown[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join('');
const kinds = (events: SessionWriterEvent[]) => events.map((event) => `${event.kind}${event.reason === undefined ? '' : `:${event.reason}`}`);

/** A Claude Code session in which a Task call runs a sub-agent whose lines are written into the same file before the task's result. */
function taskWithSubAgent(agentId: string | undefined) {
  const s = sessionLines('claude-code', 'c1a0de00');
  const side = s.sideChain!('5b0a9e00', agentId);
  const before = [s.user('survey the repo'), ...s.assistantLines([['toolu_task1', 'Task']])];
  const subAgent = [side.user('list the sources'), ...side.assistantLines([['toolu_sub1', 'Glob']]), side.aside(), side.result('toolu_sub1', 'Glob'), side.reply('Found 3 files.')];
  const after = [s.result('toolu_task1', 'Task'), s.reply('The repo has 3 sources.')];
  return { s, side, before, subAgent, after };
}

describe('E5 — sub-agent lines pass a held pair by without releasing or breaking it', () => {
  it.each([
    ['Claude Code 2.x side chain (agentId)', 'agent-a2d1cf8d'],
    ['Claude Code 1.0 side chain (no agentId)', undefined],
  ])('E5 — %s: a Task call, the sub-agent\'s own lines, the task\'s result: every line is written, the file is clean', async (_, agentId) => {
    const { before, subAgent, after } = taskWithSubAgent(agentId);
    const out = await written('claude-code', [...before, ...subAgent, ...after]);
    expect(kinds(out.events)).toEqual(['committed', 'committed']);
    expect(out.events.map((event) => event.callIds)).toEqual([['toolu_sub1'], ['toolu_task1']]);
    // The sub-agent's lines go out as they come (its own pair whole); the task's pair once its result is in.
    expect(out.text).toBe(jsonl([before[0], ...subAgent, before[1], ...after]));
    expect(await errors(out.file, 'claude-code')).toEqual([]);
  });

  it('E5 — Claude Code: pendingCallIds names the task call and the sub-agent\'s call while both wait', async () => {
    const { before, subAgent } = taskWithSubAgent('agent-77');
    const file = join(mkdtempSync(join(tmpdir(), 'td-writer-edge-')), 'session.jsonl');
    const writer = await openSessionWriter(file, { format: 'claude-code' });
    for (const line of [...before, ...subAgent.slice(0, 2)]) await writer.append(line);
    expect(writer.pendingCallIds()).toEqual(['toolu_task1', 'toolu_sub1']);
    await writer.close();
  });

  it.each<AbortMode>(['discard', 'synthetic'])('E5 — Claude Code (%s): an abort while the sub-agent waits on its own tool settles both pairs, and the file holds no error', async (abortMode) => {
    const { before, subAgent } = taskWithSubAgent('agent-88');
    const out = await written('claude-code', [...before, ...subAgent.slice(0, 3)], { abortMode, abortAfter: 5 });
    expect(kinds(out.events)).toEqual(abortMode === 'discard' ? ['discarded:abort', 'discarded:abort'] : ['completed:abort', 'completed:abort']);
    expect(await errors(out.file, 'claude-code')).toEqual([]);
  });

  it('E5 — Claude Code: a sub-agent that ran while two parallel Tasks wait (1.0 writes it between their results) leaves both pairs whole', async () => {
    const s = sessionLines('claude-code', 'c1a0de01');
    const side = s.sideChain!('5b0a9e01');
    const calls = s.assistantLines([['toolu_t1', 'Task'], ['toolu_t2', 'Task'], ['toolu_t3', 'TodoWrite']]);
    const first = s.result('toolu_t1', 'Task');
    const subAgent = [side.user('run the tests'), ...side.assistantLines([['toolu_s1', 'Bash']]), side.result('toolu_s1', 'Bash'), side.reply('All green.')];
    const rest = [s.result('toolu_t2', 'Task'), s.result('toolu_t3', 'TodoWrite'), s.reply('Done.')];
    const lines = [s.user('go'), ...calls, first, ...subAgent, ...rest];
    const out = await written('claude-code', lines);
    expect(kinds(out.events)).toEqual(['committed', 'committed']);
    expect(out.shapes.filter((shape) => shape !== 'other').sort()).toEqual(lines.map((line) => pairingOf('claude-code', line)).flatMap(({ calls: c, results: r }) => (c.length > 0 ? [`call:${c}`] : r.length > 0 ? [`result:${r}`] : [])).sort());
    expect(await errors(out.file, 'claude-code')).toEqual([]);
  });

  it('E5 — Claude Code: results written before their call, as Claude Code writes a streamed response, are held for it; the file comes out byte for byte', async () => {
    const s = sessionLines('claude-code', 'c1a0de02');
    const [callR, callH, callE] = s.assistantLines([['toolu_r', 'Read'], ['toolu_h', 'Write'], ['toolu_e', 'Bash']]);
    const [resultR, resultH, resultE] = [s.result('toolu_r', 'Read'), s.result('toolu_h', 'Write'), s.result('toolu_e', 'Bash')];
    const fileOrder = [s.user('go'), resultH, callR, s.aside(), callE, resultR, callH, resultE, s.reply('Done.')];
    const original = join(mkdtempSync(join(tmpdir(), 'td-writer-edge-')), 'original.jsonl');
    writeFileSync(original, jsonl(fileOrder));
    expect(await findings(original, 'claude-code')).toEqual([]);
    const out = await written('claude-code', fileOrder);
    expect(kinds(out.events)).toEqual(['committed']);
    expect(out.text).toBe(jsonl(fileOrder));
  });

  it('E5 — Copilot CLI: interleaved sub-agents\' events (#2543) replayed through the writer: every line written, no pair settled early, nothing found', async () => {
    const text = readFileSync(join(FIXTURES, 'copilot-cli', 'subagents-interleaved.jsonl'), 'utf8');
    const out = await written('copilot-cli', text.split('\n').filter(Boolean));
    expect(kinds(out.events).filter((kind) => kind !== 'committed')).toEqual([]);
    // Every line once; a sub-agent's go out while the main conversation's pair is held, so before it.
    expect(out.text.split('\n').sort()).toEqual(text.split('\n').sort());
    expect(await findings(out.file, 'copilot-cli')).toEqual([]);
  });

  it.each(CLEAN_FIXTURES)('E5 — %s fixture %s: replayed through the writer line by line, the scanner finds nothing it did not find before', async (format, name) => {
    const source = join(FIXTURES, format, name);
    const lines = readFileSync(source, 'utf8').split('\n').filter(Boolean);
    const out = await written(format, lines);
    const before = await findings(source, format);
    const gained = (await findings(out.file, format)).filter((rule, i, all) => all.filter((r) => r === rule).length > before.filter((r) => r === rule).length && all.indexOf(rule) === i);
    expect(gained).toEqual([]);
  });
});

/** The call ids of results on disk. */
const resultsOnDisk = (out: Written) => out.shapes.filter((shape) => shape.startsWith('result:'));

describe.each(BUILT)('E6 — (%s) a result that answers no waiting call is dropped, never written', (format) => {
  const start = (s: SessionLines) => [s.header(), s.user('go')].filter((line) => line !== undefined);

  it(`E6 — ${format}: a result for a call never made is not written (dropped, reason "no such call")`, async () => {
    const s = sessionLines(format);
    const out = await written(format, [...start(s), s.result('call_never', 'read'), s.reply('Hello.')]);
    expect(resultsOnDisk(out)).toEqual([]);
    expect(out.events).toEqual([{ kind: 'dropped', reason: 'no such call', callIds: ['call_never'], lines: 0 }]);
    expect(await errors(out.file, format)).toEqual([]);
  });

  it(`E6 — ${format}: a second result for an answered call is not written (dropped, reason "answered already")`, async () => {
    const s = sessionLines(format);
    const out = await written(format, [...start(s), ...s.assistantLines([['call_d1', 'read']]), s.result('call_d1', 'read'), s.result('call_d1', 'read'), s.reply('Read.')]);
    expect(resultsOnDisk(out)).toEqual(['result:call_d1']);
    expect(kinds(out.events)).toEqual(['committed', 'dropped:answered already']);
    expect(await errors(out.file, format)).toEqual([]);
  });

  it(`E6 — ${format}: while a pair waits, a second result for its answered call and one for another call are dropped, and the pair is still written whole`, async () => {
    const s = sessionLines(format);
    const opening = start(s);
    const calls = s.assistantLines([['call_w1', 'read'], ['call_w2', 'read']]);
    const out = await written(format, [...opening, ...calls, s.result('call_w1', 'read'), s.result('call_w1', 'read'), s.result('call_other', 'read'), s.result('call_w2', 'read'), s.reply('Both read.')]);
    expect(resultsOnDisk(out)).toEqual(['result:call_w1', 'result:call_w2']);
    // Where a result may come before its call (Claude Code), one naming an unknown call waits for it until the turn ends.
    expect(kinds(out.events)).toEqual(['dropped:answered already', 'dropped:no such call', 'committed']);
    expect(await errors(out.file, format)).toEqual([]);
  });

  it.each<AbortMode>(['discard', 'synthetic'])(`E6 — ${format} (%s): the real result that comes after an abort settled its call is dropped`, async (abortMode) => {
    const s = sessionLines(format);
    const lines = [...start(s), ...s.assistantLines([['call_l1', 'read']])];
    const out = await written(format, [...lines, s.result('call_l1', 'read'), s.user('again'), s.reply('Fine.')], { abortMode, abortAfter: lines.length });
    expect(resultsOnDisk(out)).toEqual(abortMode === 'discard' ? [] : ['result:call_l1']);
    expect(kinds(out.events)).toEqual([abortMode === 'discard' ? 'discarded:abort' : 'completed:abort', 'dropped:answered already']);
    if (abortMode === 'synthetic') expect(out.text).not.toMatch(/output of read|"content":"ok"|"output":"ok"/);
    expect(await errors(out.file, format)).toEqual([]);
  });
});
