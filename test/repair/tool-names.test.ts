import { describe, expect, it } from 'vitest';
import { repairText, roles } from '../helpers/repair-tester.js';
import { scanText } from '../helpers/scan-text.js';
import { call, Session } from '../helpers/session.js';

const A = 'toolu_01AAAAAAAAAAAAAAAAAAAAAA';
const B = 'toolu_01BBBBBBBBBBBBBBBBBBBBBB';

/** OpenClaw's own transcript-repair cases for tool names, as sessions. */
const INVALID = ['', '   ', 'n'.repeat(65), 'read<|tool_call_argument_begin|>{"path"', 'read file', 'read.file'];

describe('repair: tool names', () => {
  for (const mode of ['discard', 'synthetic'] as const) {
    it.each(INVALID)(`${mode}: a call named %j goes with its result; the other call stays`, async (name) => {
      const jsonl = new Session().user().calls(call(A, name), call(B, 'exec')).result(A, name || null).result(B, 'exec').reply().jsonl();
      const { lines, output } = await repairText(jsonl, mode);
      expect(roles(lines)).toEqual(['user', `assistant[${B}]`, `result:${B}`, 'assistant']);
      expect(await scanText(output)).toEqual([]);
      expect((await repairText(output, mode)).report.repair.changed).toBe(false);
    });

    it(`${mode}: a turn with nothing left but the bad call goes`, async () => {
      const jsonl = new Session().user().assistant([call(A, 'bad name')], 'toolUse').result(A, 'bad name').user('next').reply().jsonl();
      const { lines, output } = await repairText(jsonl, mode);
      expect(roles(lines)).toEqual(['user', 'user', 'assistant']);
      expect(await scanText(output)).toEqual([]);
    });
  }

  it('trims padded names in calls and results, changing nothing else', async () => {
    const jsonl = new Session().user().calls(call(A, ' read ')).result(A, '\tread').reply().jsonl();
    const { lines, output, report } = await repairText(jsonl);
    expect(lines[2]!.message.content[1].name).toBe('read');
    expect(lines[3]!.message.toolName).toBe('read');
    expect(report.repair.counts).toMatchObject({ droppedToolCalls: 0, rewrittenEntries: 2 });
    const before = jsonl.trimEnd().split('\n');
    output.trimEnd().split('\n').forEach((line, i) => {
      if (i === 2 || i === 3) expect(line).toBe(before[i]!.replace(/"name":" read "|"toolName":"\\tread"/, (m) => m.replace(/ read |\\tread/, 'read')));
      else expect(line).toBe(before[i]);
    });
  });
});
