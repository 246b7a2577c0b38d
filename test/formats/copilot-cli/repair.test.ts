import { describe, expect, it } from 'vitest';
import type { RepairMode } from '../../../src/repair/plan.js';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { Session, type Line } from './session.js';

const LS = { id: 'call_1_0_0', name: 'bash' };
const VIEW = { id: 'call_1_0_1', name: 'view' };

/** Repairs; checks that nothing is left to find, that a second run changes nothing, and returns the lines. */
async function repaired(text: string, mode: RepairMode): Promise<{ output: string; lines: Line[] }> {
  const { output, lines } = await repairText(text, mode, 'events.jsonl');
  expect(await scanText(output), mode).toEqual([]);
  expect((await repairText(output, mode, 'events.jsonl')).output, mode).toBe(output);
  return { output, lines };
}


describe('Copilot CLI repair', () => {
  it('synthetic writes the failed completion the runtime itself appends, right after the call it answers', async () => {
    const text = new Session().user('run').turn('', [{ ...LS }]).text();
    const { output, lines } = await repaired(text, 'synthetic');
    const added = lines.find((line) => line.type === 'tool.execution_complete')!;
    expect(added.data).toEqual({
      toolCallId: LS.id,
      model: 'resumed',
      interactionId: 'resume',
      success: false,
      error: { message: expect.stringMatching(/^Tool execution was interrupted before a result was recorded\./), code: 'interrupted' },
    });
    expect(lines.map((line) => line.type)).toEqual(['session.start', 'user.message', 'assistant.turn_start', 'assistant.message', 'tool.execution_complete', 'tool.execution_start']);
    // A new event names the one it follows; the client replays the file in order, so the event after keeps its link.
    expect(added.parentId).toBe(lines[3]!.id);
    expect(added.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    // Every line of the file is still there, byte for byte.
    expect(text.split('\n').every((line) => output.split('\n').includes(line))).toBe(true);
  });

  it('discard drops the unanswered request from its message and keeps the answered one; untouched lines stay byte-identical', async () => {
    const text = new Session().user('run').turn('', [{ ...LS, output: 'a.txt' }, { ...VIEW }]).text();
    const { output, lines } = await repaired(text, 'discard');
    expect(lines[3]!.data.toolRequests.map((request: Line) => request.toolCallId)).toEqual([LS.id]);
    const before = text.split('\n');
    expect(output.split('\n').flatMap((line, i) => (line === before[i] ? [] : [i + 1]))).toEqual([4]);
  });

  it('leaves a healthy session byte-identical in both modes', async () => {
    const text = new Session('claude-sonnet-4.5').user('run').turn('', [{ ...LS, output: 'a' }, { ...VIEW, output: 'b' }]).turn('done').text();
    for (const mode of ['discard', 'synthetic'] as const) expect((await repairText(text, mode, 'events.jsonl')).output, mode).toBe(text);
  });

  it('drops a completion whose call is gone, and nothing else', async () => {
    const session = new Session().user('run').turn('hi');
    session.complete('call_gone', 'x');
    const text = session.user('next').turn('ok').text();
    const { output } = await repaired(text, 'discard');
    expect(output).toBe(text.split('\n').filter((line) => !line.includes('call_gone')).join('\n'));
  });

  it('joins a completion written over three lines by raw newlines in result.content into the record the writer meant (#2649)', async () => {
    const session = new Session().user('run').turn('', [{ ...LS, output: 'first\nsecond\nthird' }]).turn('done');
    const meant = JSON.stringify(session.lines.find((line) => line.type === 'tool.execution_complete'));
    const text = session.text().replace(meant, meant.replaceAll('\\n', '\n'));
    expect(text.split('\n').length).toBe(session.text().split('\n').length + 2);
    const { output } = await repaired(text, 'discard');
    expect(output).toBe(session.text());
  });

  it('cuts the NUL run a crash left at the end (#2217) and the torn event after power loss (#1864)', async () => {
    const session = new Session().user('run').turn('', [{ ...LS, output: 'a' }]).turn('done');
    const whole = session.text();
    const nul = await repaired(whole + '\0'.repeat(1728), 'discard');
    expect(nul.output).toBe(whole);
    const torn = await repaired(whole + JSON.stringify(new Session().user('x').lines[1]).slice(0, 40), 'discard');
    expect(torn.output).toBe(whole);
  });
});

describe('Copilot CLI schema drift (github/copilot-sdk #1007)', () => {
  it('writes true where the schema allows only that literal, and changes nothing else', async () => {
    const session = new Session().user('run').turn('hi');
    session.event('session.idle', {}, { ephemeral: false });
    const text = session.user('next').turn('ok').text();
    const [finding] = await scanText(text);
    expect(finding).toMatchObject({ rule: 'schema-violation', line: 6, pointer: '/ephemeral', severity: 'warning' });
    const { output, lines } = await repaired(text, 'discard');
    expect(lines[5]!.ephemeral).toBe(true);
    const before = text.split('\n');
    expect(output.split('\n').flatMap((line, i) => (line === before[i] ? [] : [i + 1]))).toEqual([6]);
  });

  it('finds what 1.0.102 refuses the file for: an id that is no UUID, a non-boolean ephemeral, a required field that is null', async () => {
    const session = new Session().user('run').turn('', [{ ...LS, output: 'a' }]).turn('done');
    session.lines[2]!.id = 'not-a-uuid';
    session.lines[3]!.parentId = 'not-a-uuid';
    session.lines[4]!.ephemeral = 'yes';
    session.lines[5]!.data.toolCallId = null;
    delete session.lines[7]!.id;
    const findings = await scanText(session.text());
    expect(findings.filter((f) => f.rule === 'schema-violation').map((f) => [f.line, f.pointer, f.severity])).toEqual([
      [3, '/id', 'error'],
      [4, '/parentId', 'error'],
      [5, '/ephemeral', 'error'],
      [6, '/data/toolCallId', 'error'],
      [8, '/id', 'error'],
    ]);
  });

  it('names a missing required field and leaves it, since the schema does not say what it held', async () => {
    const session = new Session().user('run').turn('', [{ ...LS, output: 'a' }]);
    delete session.lines[5]!.data.success;
    const findings = await scanText(session.turn('done').text());
    expect(findings.map((finding) => [finding.rule, finding.line, finding.pointer])).toEqual([['schema-violation', 6, '/data/success']]);
    const { output } = await repairText(session.text(), 'discard', 'events.jsonl');
    expect(output).toBe(session.text());
  });
});

describe('Copilot CLI line breaks inside strings', () => {
  it('keeps a raw U+2028 in a prompt (#2490) byte for byte and says nothing: 1.0.102 loads it (tried offline)', async () => {
    const text = new Session().user('count the TODOs\u2028in notes.txt').turn('two').text();
    expect(text).toContain('\u2028');
    expect(await scanText(text)).toEqual([]);
    expect((await repairText(text, 'discard', 'events.jsonl')).output).toBe(text);
  });
});

describe('Copilot CLI start of the file', () => {
  it('finds a file whose first event is not session.start (a start torn by a crash), which the client refuses, and writes the start back', async () => {
    const session = new Session().user('run').turn('hi');
    const written = session.text().split('\n');
    const text = [written[0]!.slice(0, 50), ...written.slice(1)].join('\n');
    const findings = await scanText(text);
    expect(findings.map((f) => [f.rule, f.line])).toEqual([
      ['invalid-json', 1],
      ['invalid-header', 2],
    ]);
    expect(findings[1]!.message).toContain('Session file is corrupted or incompatible');
    // The torn line goes; a start takes its place, named after the session's folder, with the first event's time.
    const { output, lines } = await repaired(text, 'discard');
    expect(output.split('\n').slice(1)).toEqual(written.slice(1));
    expect(lines[0]).toMatchObject({ type: 'session.start', data: { version: 1, producer: 'copilot-agent', copilotVersion: '1.0.102', startTime: session.lines[1]!.timestamp }, parentId: null });
    expect(lines[0]!.data.sessionId).toMatch(/^td-repair-/);
  });
});
