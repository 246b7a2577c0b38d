import { describe, expect, it } from 'vitest';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { assistant, call, jsonl, line, meta, output, resetClock, user, type Line } from './rollout.js';

/** The items of a replacement history: what those builders put in a line's payload. */
const item = (value: Line) => value.payload;
const compacted = (history?: Line[]): Line => line('compacted', { message: 'Summary of the work so far.', ...(history === undefined ? {} : { replacement_history: history.map(item) }) });

async function findings(lines: Line[]): Promise<string[]> {
  return (await scanText(jsonl(lines))).map((f) => `${f.line} ${f.rule} ${f.severity} ${f.pointer}${f.providerError === undefined ? '' : ` | ${f.providerError}`}`);
}

function opening(): Line[] {
  resetClock();
  return [meta(), user('start')];
}

describe('Codex compacted records', () => {
  it('accept a replacement history whose calls and outputs pair, with messages and calls of every kind', async () => {
    resetClock();
    const history = [user('a'), call('function', 'call_1'), call('custom', 'call_2'), output('custom', 'call_2'), output('function', 'call_1'), assistant('ok')];
    expect(await findings([...opening(), compacted(history), user('go on'), assistant('done')])).toEqual([]);
  });

  it('report each broken pair inside the replacement history at its item, with the Responses API text', async () => {
    resetClock();
    const history = [user('a'), call('function', 'call_open'), output('function', 'call_nobody'), output('custom', 'call_late'), call('custom', 'call_late'), call('shell', 'call_twice'), output('shell', 'call_twice'), output('shell', 'call_twice')];
    expect(await findings([...opening(), compacted(history), user('go on')])).toEqual([
      '3 kept-history-pairing error /payload/replacement_history/1 | OpenAI Responses: No tool output found for function call call_open.',
      '3 kept-history-pairing error /payload/replacement_history/2 | OpenAI Responses: No tool call found for function call output with call_id call_nobody.',
      '3 kept-history-pairing error /payload/replacement_history/3 | OpenAI Responses: No tool call found for function call output with call_id call_late.',
      '3 kept-history-pairing error /payload/replacement_history/7',
    ]);
  });

  it('report a broken pair in a replacement history that a later compaction replaced one severity lower', async () => {
    const lines = [...opening(), compacted([call('function', 'call_open')]), user('more'), compacted([user('more')]), user('go on')];
    expect(await findings(lines)).toEqual(['3 kept-history-pairing warning /payload/replacement_history/0 | OpenAI Responses: No tool output found for function call call_open.']);
  });

  it('replace the history before them, with or without a replacement history: an output after the record whose call is before it is an orphan', async () => {
    for (const history of [undefined, [user('start')]]) {
      const lines = [...opening(), call('function', 'call_x'), compacted(history), output('function', 'call_x'), assistant('?')];
      expect((await findings(lines)).map((f) => f.split(' ').slice(0, 3).join(' ')), String(history)).toEqual(['5 orphan-tool-result error']);
      for (const mode of ['discard', 'synthetic'] as const) {
        const repaired = await repairText(jsonl(lines), mode);
        expect(repaired.report.findings.filter((f) => f.severity === 'error'), mode).toEqual([]);
      }
    }
  });

  for (const mode of ['discard', 'synthetic'] as const) {
    it(`${mode}: repair pairs the replacement history inside the record, leaves every other line byte for byte, and is idempotent`, async () => {
      resetClock();
      const history = [user('a'), output('custom', 'call_late'), call('custom', 'call_late'), call('function', 'call_open'), output('function', 'call_nobody'), call('shell', 'call_twice'), output('shell', 'call_twice'), output('shell', 'call_twice'), call('function', 'call_r'), output('function', 'call_r'), call('function', 'call_r'), output('function', 'call_r'), assistant('ok')];
      const lines = [...opening(), compacted(history), user('go on'), assistant('done')];
      const text = jsonl(lines);
      const once = await repairText(text, mode);
      expect(once.report.findings).toEqual([]);
      const fixed = once.lines[2]!.payload.replacement_history as Line[];
      const shape = fixed.map((value) => [value.type, value.call_id, value.output === 'aborted' ? 'aborted' : undefined].filter(Boolean).join(' '));
      const renamed = fixed[fixed.length - 3]!.call_id as string;
      expect(renamed).toMatch(/^call_[0-9a-f]{24}$/);
      expect(shape).toEqual([
        'message',
        'custom_tool_call call_late',
        'custom_tool_call_output call_late',
        ...(mode === 'discard' ? [] : ['function_call call_open', 'function_call_output call_open aborted']),
        'local_shell_call call_twice',
        'function_call_output call_twice',
        'function_call call_r',
        'function_call_output call_r',
        `function_call ${renamed}`,
        `function_call_output ${renamed}`,
        'message',
      ]);
      const before = text.split('\n');
      const after = once.output.split('\n');
      expect(after.filter((_, i) => i !== 2)).toEqual(before.filter((_, i) => i !== 2));
      expect({ ...once.lines[2], payload: { ...once.lines[2]!.payload, replacement_history: undefined } }).toEqual({ ...lines[2], payload: { ...lines[2]!.payload, replacement_history: undefined } });
      const twice = await repairText(once.output, mode);
      expect(twice.output).toBe(once.output);
    });
  }
});
