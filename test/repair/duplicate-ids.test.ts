import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freshCallId } from '../../src/repair/fresh-call-id.js';
import { repairText, roles } from '../helpers/repair-tester.js';
import { scanText } from '../helpers/scan-text.js';
import { call, Session } from '../helpers/session.js';

const KIMI = readFileSync('fixtures/pi/duplicate-tool-call-id.jsonl');

describe('repair: a call that reuses an earlier call id', () => {
  it.each(['discard', 'synthetic'] as const)('%s: the later call and its result get one fresh id; both answered calls stay', async (mode) => {
    const before = KIMI.toString('utf8').trimEnd().split('\n');
    const { lines, output, report } = await repairText(KIMI, mode);
    expect(report.repair.counts.renamedToolCalls).toBe(1);
    expect(await scanText(output)).toEqual([]);
    const fresh = lines[7]!.message.content.find((b: { type: string }) => b.type === 'toolCall').id;
    expect(fresh).toMatch(/^functions\.exec:[1-9]\d{7}$/);
    expect(lines[8]!.message.toolCallId).toBe(fresh);
    // Only the renamed call and its result changed; the first pair is byte for byte as it was.
    const changed = output.trimEnd().split('\n').filter((line, i) => line !== before[i]);
    expect(changed.map((line) => JSON.parse(line).id)).toEqual([lines[7]!.id, lines[8]!.id]);
    expect((await repairText(output, mode)).report.repair.changed).toBe(false);
  });

  it('gives the same bytes on every run', async () => {
    expect((await repairText(KIMI)).output).toBe((await repairText(KIMI)).output);
  });

  it('pairs results with the latest call of their id: a result after the newer call is the newer call\'s', async () => {
    // The first call was never answered; the result after the second call is the second call's.
    const jsonl = new Session().user().calls(call('functions.read:0')).user('again').calls(call('functions.read:0')).result('functions.read:0').reply().jsonl();
    const discard = await repairText(jsonl, 'discard');
    expect(roles(discard.lines)).toEqual(['user', 'assistant', 'user', 'assistant[functions.read:0]', 'result:functions.read:0', 'assistant']);
    expect(discard.report.repair.counts.renamedToolCalls).toBe(0);
    const synthetic = await repairText(jsonl, 'synthetic');
    const [first, second] = roles(synthetic.lines).filter((r) => r.startsWith('assistant['));
    expect(first).toBe('assistant[functions.read:0]');
    expect(second).toMatch(/^assistant\[functions\.read:\d+\]$/);
    expect(await scanText(synthetic.output)).toEqual([]);
  });

  it('renames a second block with the same id in one message, and points its result at it', async () => {
    const jsonl = new Session().user().calls(call('dup_1', 'read'), call('dup_1', 'exec')).result('dup_1', 'read').result('dup_1', 'exec').reply().jsonl();
    const { lines, output } = await repairText(jsonl);
    const ids = lines[2]!.message.content.filter((b: { type: string }) => b.type === 'toolCall').map((b: { id: string }) => b.id);
    expect(ids[0]).toBe('dup_1');
    expect(ids[1]).toMatch(/^dup_[0-9A-Za-z]{8}$/);
    expect([lines[3]!.message.toolCallId, lines[4]!.message.toolCallId]).toEqual(ids);
    expect(await scanText(output)).toEqual([]);
  });

  it('an unanswered later duplicate gets its synthetic result under the new id', async () => {
    const jsonl = new Session().user().calls(call('x_1')).result('x_1').calls(call('x_1')).user('hello?').reply().jsonl();
    const { lines, output } = await repairText(jsonl, 'synthetic');
    const renamed = lines[4]!.message.content.find((b: { type: string }) => b.type === 'toolCall').id;
    expect(renamed).not.toBe('x_1');
    expect(lines[5]!.message).toMatchObject({ toolCallId: renamed, isError: true });
    expect(await scanText(output)).toEqual([]);
  });

  it('renames nothing when the earlier call goes anyway', async () => {
    const jsonl = new Session().user().calls(call('y_1')).user('hm').calls(call('y_1')).result('y_1').reply().jsonl();
    const { report, output } = await repairText(jsonl, 'discard');
    expect(report.repair.counts).toMatchObject({ renamedToolCalls: 0, droppedToolCalls: 1 });
    expect(await scanText(output)).toEqual([]);
  });
});

describe('freshCallId', () => {
  const none = () => false;
  it.each([
    ['toolu_01A09q90qw90lq917835lq9', /^toolu_[0-9A-Za-z]{23}$/],
    ['functions.read:0', /^functions\.read:[1-9]\d{7}$/],
    ['call_abc123|fc_9f8e7d6c5b4a', /^call_abc123\|fc_[0-9a-f]{12}$/],
    ['abcDEF123', /^[0-9A-Za-z]{9}$/],
  ])('%s keeps its shape', (old, shape) => {
    const fresh = freshCallId(old, none);
    expect(fresh).toMatch(shape);
    expect(fresh).not.toBe(old);
    expect(freshCallId(old, none)).toBe(fresh);
  });

  it('skips ids already taken', () => {
    const first = freshCallId('toolu_01X', none);
    const second = freshCallId('toolu_01X', (id) => id === first);
    expect(second).not.toBe(first);
    expect(second).toMatch(/^toolu_[0-9A-Za-z]{8}$/);
  });
});

describe('repair: an entry written twice', () => {
  const copy = (line: string) => line.replace(/"timestamp":"[^"]*"/, '"timestamp":"2026-03-03T00:00:00.000Z"');

  it('drops the earlier copy and keeps the later one byte for byte', async () => {
    const session = new Session().user('first').reply('ok').user('second');
    const user = session.lines[3]!;
    session.raw(copy(user));
    session.reply('done');
    const { output, report } = await repairText(session.jsonl());
    expect(report.repair.counts.droppedDuplicates).toBe(1);
    expect(output).toBe(session.lines.filter((_, i) => i !== 3).map((line) => `${line}\n`).join(''));
    expect(await scanText(output)).toEqual([]);
  });

  it('leaves two different entries with one id as a finding', async () => {
    const session = new Session().user('first', { id: 'aaaa0001' }).reply('ok').user('other', { id: 'aaaa0001', parent: null });
    const { report } = await repairText(session.jsonl());
    expect(report.findings.map((f) => f.rule)).toEqual(['duplicate-entry-id']);
  });

  it('leaves copies alone when something between them hangs on the earlier one', async () => {
    const session = new Session().user('first').reply('answer to the first copy');
    session.raw(copy(session.lines[1]!));
    const { report } = await repairText(session.jsonl());
    expect(report.repair.counts.droppedDuplicates).toBe(0);
    expect(report.findings.map((f) => f.rule)).toContain('duplicate-entry-id');
  });
});
