import { describe, expect, it } from 'vitest';
import type { RepairMode } from '../../../src/repair/plan.js';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { answer, calling, context, jsonl, metadata, resetClock, rewind, rewritten, touched, user, type Line } from './session.js';

const MODES: RepairMode[] = ['discard', 'synthetic'];
const PLACEHOLDER = '[The previous response was interrupted before it completed.]';
const SH = { id: 'run_shell_command-3-c', name: 'run_shell_command' };

function opening(): Line[] {
  resetClock();
  return [metadata(), rewritten([context()]), user('u1', 'Run the tests.'), touched()];
}

async function findings(lines: Line[] | string): Promise<string[]> {
  return (await scanText(typeof lines === 'string' ? lines : jsonl(lines))).map((f) => `${f.line} ${f.rule} ${f.severity}`);
}

/** Repairs, checks nothing is left to find and that a second run writes the same bytes; the output lines. */
async function repaired(lines: Line[], mode: RepairMode): Promise<Line[]> {
  const { output, lines: parsed } = await repairText(jsonl(lines), mode);
  expect(await scanText(output), mode).toEqual([]);
  expect((await repairText(output, mode)).output, mode).toBe(output);
  return parsed;
}

describe('how a Gemini CLI history ends, as the client mends it on resume', () => {
  it('reports an empty model message that ends the history, healed by the client, and drops its line in both modes', async () => {
    // Killed while the tool ran: the model turn of calls is recorded empty, its calls never.
    const lines = [...opening(), answer('m1', ''), touched()];
    const found = await scanText(jsonl(lines));
    expect(found.map((f) => [f.line, f.rule, f.severity, f.healedBy?.client, f.healedBy?.since])).toEqual([[5, 'empty-final-turn', 'info', 'Gemini CLI', '0.61.0']]);
    for (const mode of MODES) expect(await repaired(lines, mode), mode).toEqual(JSON.parse(`[${jsonl(lines.filter((_, i) => i !== 4)).trim().split('\n').join(',')}]`));
  });

  it('drops every copy of the empty message: its own lines and its place in a $set.messages list', async () => {
    const base = opening();
    const empty = answer('m1', '');
    resetClock();
    const lines = [...base, empty, rewritten([context(), user('u1', 'Run the tests.'), empty]), { ...empty }];
    expect(await findings(lines)).toEqual(['5 empty-final-turn info', '6 empty-final-turn info', '7 empty-final-turn info']);
    for (const mode of MODES) {
      const out = await repaired(lines, mode);
      expect(out.filter((line) => line.id === 'm1'), mode).toEqual([]);
      expect(out.at(-1)!.$set.messages.map((message: Line) => message.id), mode).toEqual(['c0ffee00c0ffee00c0ffee00c0ffee00', 'u1']);
    }
  });

  it('keeps an empty message in the middle of the history, and one a rewind names', async () => {
    expect(await findings([...opening(), answer('m1', ''), user('u2', 'And now?'), answer('m2', 'Done.')])).toEqual([]);
    expect(await findings([...opening(), answer('m1', ''), rewind('m1'), answer('m1', '')])).toEqual([]);
  });

  it('synthetic answers a tail call and writes the client’s own closing turn after it, which placeholder-turn leaves alone', async () => {
    const lines = [...opening(), calling('m1', [{ ...SH }]), touched()];
    const out = await repaired(lines, 'synthetic');
    expect(out).toHaveLength(lines.length + 1);
    expect(out[4]!.toolCalls[0].status).toBe('cancelled');
    const closing = out.at(-1)!;
    expect(closing).toMatchObject({ type: 'gemini', content: PLACEHOLDER, thoughts: [], model: 'gemini-2.5-pro', timestamp: lines[4]!.timestamp });
    expect(closing.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('discard drops a tail call whose message is then empty, with its line, and adds no closing turn', async () => {
    const lines = [...opening(), calling('m1', [{ ...SH }]), touched()];
    const out = await repaired(lines, 'discard');
    expect(out).toEqual(JSON.parse(`[${jsonl(lines.filter((_, i) => i !== 4)).trim().split('\n').join(',')}]`));
  });

  it('reports a history that ends on answered calls, healed by the client, and closes it in both modes', async () => {
    const lines = [...opening(), calling('m1', [{ ...SH, output: '3 passed' }]), touched()];
    const found = await scanText(jsonl(lines));
    expect(found.map((f) => [f.line, f.rule, f.severity, f.healedBy?.how])).toEqual([[5, 'unanswered-final-turn', 'info', `adds a model turn "${PLACEHOLDER}" before the new prompt`]]);
    for (const mode of MODES) {
      const out = await repaired(lines, mode);
      expect(out.slice(0, -1), mode).toEqual(JSON.parse(`[${jsonl(lines).trim().split('\n').join(',')}]`));
      expect(out.at(-1), mode).toMatchObject({ type: 'gemini', content: PLACEHOLDER });
    }
  });

  it('still reports a saved placeholder the history goes on after, or one after no responses', async () => {
    expect(await findings([...opening(), calling('m1', [{ ...SH, output: '3 passed' }]), answer('m2', PLACEHOLDER), user('u2', 'Go on.')])).toEqual(['6 placeholder-turn warning']);
    expect(await findings([...opening(), answer('m2', PLACEHOLDER)])).toEqual(['5 placeholder-turn warning']);
    // Emptied, it would end the history empty: the next pass takes its line.
    for (const mode of MODES) expect((await repaired([...opening(), answer('m2', PLACEHOLDER)], mode)).map((line) => line.id), mode).not.toContain('m2');
    expect(await findings([...opening(), calling('m1', [{ ...SH, output: '3 passed' }]), answer('m2', PLACEHOLDER)])).toEqual([]);
  });

  it('reports nothing for a history that ends on a prompt: the client merges it with the next', async () => {
    expect(await findings([...opening(), calling('m1', [{ ...SH, output: '3 passed' }]), answer('m2', 'All pass.'), user('u2', 'Explain them.')])).toEqual([]);
  });
});
