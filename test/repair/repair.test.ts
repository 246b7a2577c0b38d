import { describe, expect, it } from 'vitest';
import { call, Session, text } from '../helpers/session.js';
import { isChain, repairText, roles } from '../helpers/repair-tester.js';

const A = 'toolu_01AAAAAAAAAAAAAAAAAAAAAA';
const B = 'toolu_01BBBBBBBBBBBBBBBBBBBBBB';

describe('repair: pairing', () => {
  it('leaves a healthy transcript byte for byte', async () => {
    const jsonl = new Session().user().calls(call(A)).result(A).reply().jsonl();
    const { output, report } = await repairText(jsonl);
    expect(output).toBe(jsonl);
    expect(report.repair.changed).toBe(false);
  });

  it('discard: drops an unanswered call and keeps the rest of the message', async () => {
    const jsonl = new Session().user().calls(call(A)).user('still there?').reply().jsonl();
    const { lines, report } = await repairText(jsonl, 'discard');
    expect(roles(lines)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(lines[2]!.message.content).toEqual([text('Let me look.')]);
    expect(report.repair.counts).toMatchObject({ droppedToolCalls: 1, droppedAssistantMessages: 0 });
    expect(report.findings).toEqual([]);
  });

  it('discard: drops the message when nothing else is left', async () => {
    const jsonl = new Session().user().assistant([call(A)], 'toolUse').user('hello?').reply().jsonl();
    const { lines, report } = await repairText(jsonl, 'discard');
    expect(roles(lines)).toEqual(['user', 'user', 'assistant']);
    expect(isChain(lines)).toBe(true);
    expect(report.repair.counts).toMatchObject({ droppedToolCalls: 1, droppedAssistantMessages: 1 });
  });

  it('discard: a turn with signed thinking is dropped whole, with the results it had', async () => {
    const thinking = { type: 'thinking', thinking: '', thinkingSignature: 'EqUKCkYIBxgC' };
    const jsonl = new Session().user().assistant([thinking, call(A), call(B)], 'toolUse').result(A).user('and?').reply().jsonl();
    const { lines, report } = await repairText(jsonl, 'discard');
    expect(roles(lines)).toEqual(['user', 'user', 'assistant']);
    expect(report.repair.counts).toMatchObject({ droppedAssistantMessages: 1, droppedOrphans: 1 });
  });

  it('synthetic: adds an error result right after the call, marked for OpenClaw', async () => {
    const jsonl = new Session().user().calls(call(A, 'exec')).user('still there?').reply().jsonl();
    const { lines, report } = await repairText(jsonl, 'synthetic');
    expect(roles(lines)).toEqual(['user', `assistant[${A}]`, `result:${A}(synthetic)`, 'user', 'assistant']);
    const added = lines[3]!;
    expect(added.message).toMatchObject({ role: 'toolResult', toolCallId: A, toolName: 'exec', isError: true });
    expect(added.message.content[0].text).toMatch(/missing tool result/);
    expect(added.id).toMatch(/^[0-9a-f]{8}$/);
    expect(isChain(lines)).toBe(true);
    expect(report.repair.counts.addedResults).toBe(1);
    expect(report.findings).toEqual([]);
  });

  it('never synthesizes for a failed turn: its calls and their results go (OpenClaw #9769)', async () => {
    const partial = call(A, 'write', {}, { partialJson: '{"pa' });
    for (const mode of ['discard', 'synthetic'] as const) {
      const jsonl = new Session().user().assistant([text('Writing.'), partial], 'aborted').synthetic(A, 'write').user('retry').reply().jsonl();
      const { lines, report } = await repairText(jsonl, mode);
      expect(roles(lines)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(lines[2]!.message.stopReason).toBe('aborted');
      expect(report.repair.counts).toMatchObject({ droppedToolCalls: 1, droppedOrphans: 1, addedResults: 0 });
      expect(report.findings).toEqual([]);
    }
  });

  it('moves a displaced result directly after its call and re-chains the path', async () => {
    const jsonl = new Session().user().calls(call(A)).user('hurry up').result(A).reply().jsonl();
    const { lines, report } = await repairText(jsonl);
    expect(roles(lines)).toEqual(['user', `assistant[${A}]`, `result:${A}`, 'user', 'assistant']);
    expect(isChain(lines)).toBe(true);
    expect(report.repair.counts.movedResults).toBe(1);
  });

  it('puts results in call order', async () => {
    const jsonl = new Session().user().calls(call(A), call(B)).result(B).result(A).reply().jsonl();
    const { lines } = await repairText(jsonl);
    expect(roles(lines)).toEqual(['user', `assistant[${A},${B}]`, `result:${A}`, `result:${B}`, 'assistant']);
  });

  it('keeps the real result over a synthetic one and drops the synthetic', async () => {
    const jsonl = new Session().user().calls(call(A)).synthetic(A).user('hm').result(A).reply().jsonl();
    const { lines, report } = await repairText(jsonl, 'synthetic');
    expect(roles(lines)).toEqual(['user', `assistant[${A}]`, `result:${A}`, 'user', 'assistant']);
    expect(report.repair.counts).toMatchObject({ droppedDuplicates: 1, movedResults: 1 });
  });

  it('drops orphan results', async () => {
    const jsonl = new Session().user().result(A).reply().jsonl();
    const { lines, report } = await repairText(jsonl);
    expect(roles(lines)).toEqual(['user', 'assistant']);
    expect(report.repair.counts.droppedOrphans).toBe(1);
  });

  it('drops partial calls with their results', async () => {
    const jsonl = new Session().user().calls({ type: 'toolCall', id: A, name: 'read' }).result(A).reply().jsonl();
    const { lines, report } = await repairText(jsonl);
    expect(roles(lines)).toEqual(['user', 'assistant', 'assistant']);
    expect(report.repair.counts).toMatchObject({ droppedToolCalls: 1, droppedOrphans: 1 });
  });

  it('fills a missing tool name from its call, never with "unknown"', async () => {
    const jsonl = new Session().user().calls(call(A, 'exec')).result(A, null).calls(call(B, ' read ')).result(B, ' ').reply().jsonl();
    const { lines } = await repairText(jsonl);
    expect(lines.filter((l) => l.message?.role === 'toolResult').map((l) => l.message.toolName)).toEqual(['exec', 'read']);
  });

  it('leaves abandoned branches alone', async () => {
    const jsonl = new Session().user('q', { id: 'u0000001' }).calls(call(A)).user('other', { parent: 'u0000001' }).reply().jsonl();
    const { output, report } = await repairText(jsonl);
    expect(output).toBe(jsonl);
    expect(report.findings.map((f) => [f.rule, f.severity])).toEqual([['missing-tool-result', 'warning']]);
  });
});

describe('repair: lines, structure and content', () => {
  it('drops unparseable lines and re-links children to the dropped line’s parent', async () => {
    const good = new Session().user('a', { id: 'aaaaaaaa' }).reply('b', ).jsonl().trimEnd().split('\n');
    const broken = '{"type":"message","id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"x","message":{"role":"assis';
    const child = JSON.stringify({ type: 'message', id: 'cccccccc', parentId: 'bbbbbbbb', timestamp: 't', message: { role: 'user', content: 'c' } });
    const jsonl = [good[0], good[1], broken, child].join('\n') + '\n';
    const { lines, report } = await repairText(jsonl);
    expect(lines.map((l) => l.id)).toEqual(['test-session', 'aaaaaaaa', 'cccccccc']);
    expect(lines[2]!.parentId).toBe('aaaaaaaa');
    expect(report.repair.counts).toMatchObject({ droppedLines: 1, relinkedEntries: 1 });
    expect(report.findings).toEqual([]);
  });

  it('rebuilds a torn header from the file name and the first entry', async () => {
    const body = new Session(false).user('hi', { parent: null }).reply().jsonl();
    const { lines, report } = await repairText('{"type":"sess\n' + body, 'discard', '7c1e0f52-9a4d-4b8e-b1f3-2d5e8a6c9f10.jsonl');
    expect(lines[0]).toMatchObject({ type: 'session', version: 3, id: '7c1e0f52-9a4d-4b8e-b1f3-2d5e8a6c9f10', timestamp: lines[1]!.timestamp });
    expect(report.findings).toEqual([]);
  });

  it('fills an empty failed turn and a blank user message the way OpenClaw does', async () => {
    const jsonl = new Session().user('').assistant([], 'error').user([text(' ')]).reply().jsonl();
    const { lines } = await repairText(jsonl);
    expect(lines[1]!.message.content).toBe('(continue)');
    expect(lines[2]!.message.content).toEqual([text('[assistant turn failed before producing content]')]);
    expect(lines[3]!.message.content).toEqual([text('(continue)')]);
  });

  it('attaches a raw injected line without parentId to the entry before it', async () => {
    const jsonl = new Session().user().reply().assistant([text('[cron] sent')], 'injected', { parent: false }).jsonl();
    const { lines, report } = await repairText(jsonl);
    expect(lines[3]!.parentId).toBe(lines[2]!.id);
    expect(report.findings).toEqual([]);
  });

  it('keeps the key order of edited lines and adds a missing final newline', async () => {
    const jsonl = new Session().user().calls(call(A)).result(A, null).reply().jsonl().trimEnd();
    const { output } = await repairText(jsonl);
    expect(output.endsWith('\n')).toBe(true);
    const result = JSON.parse(output.split('\n')[3]!);
    expect(Object.keys(result.message)).toEqual(['role', 'toolCallId', 'content', 'isError', 'timestamp', 'toolName']);
  });

  it('keeps CRLF line endings', async () => {
    const jsonl = new Session().user().calls(call(A)).user('x').result(A).reply().jsonl().replace(/\n/g, '\r\n');
    const { output } = await repairText(jsonl);
    expect(output.split('\r\n').length - 1).toBe(output.split('\n').length - 1);
  });

  it('is idempotent', async () => {
    const jsonl = new Session().user().calls(call(A), call(B)).user('x').result(B).synthetic(A).result(A).reply().jsonl();
    for (const mode of ['discard', 'synthetic'] as const) {
      const first = await repairText(jsonl, mode);
      const second = await repairText(first.output, mode);
      expect(second.report.repair.changed).toBe(false);
      expect(second.output).toBe(first.output);
    }
  });
});
