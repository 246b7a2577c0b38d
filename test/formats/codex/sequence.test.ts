import { describe, expect, it } from 'vitest';
import type { RepairMode } from '../../../src/repair/plan.js';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { assistant, call, jsonl, meta, output, reasoning, resetClock, tokens, turnContext, user, type Line } from './rollout.js';

const MODES: RepairMode[] = ['discard', 'synthetic'];

/** Numbers lines the way a paginated Codex build writes them: the header is 0, then one more per line. */
function numbered(lines: Line[], from = 0): Line[] {
  return lines.map((value, i) => ({ timestamp: value.timestamp, ordinal: from + i, type: value.type, payload: value.payload }));
}

function session(): Line[] {
  resetClock();
  return [meta(), turnContext(), user('list the files'), reasoning(), call('function', 'call_a'), tokens(), output('function', 'call_a'), assistant('two files')];
}

async function findings(lines: Line[]): Promise<string[]> {
  return (await scanText(jsonl(lines))).map((f) => `${f.line} ${f.rule} ${f.severity}${f.providerError === undefined ? '' : ` | ${f.providerError}`}`);
}

/** Every line from the first numbered one on counts up by one. */
function counted(lines: Line[]): boolean {
  const numbers = lines.map((value) => value.ordinal);
  const first = numbers.findIndex((n) => n !== undefined);
  return numbers.slice(first).every((n, i) => n === numbers[first]! + i);
}

describe('Codex paginated rollouts: line numbers', () => {
  it('accepts a numbered rollout, one numbered after an unnumbered start, and one not numbered at all', async () => {
    expect(await findings(numbered(session()))).toEqual([]);
    const lines = session();
    expect(await findings([...lines.slice(0, 3), ...numbered(lines.slice(3), 7)])).toEqual([]);
    expect(await findings(session())).toEqual([]);
  });

  it('reports a number used twice as a warning (Codex resumes it), in the words of the history store that stops there', async () => {
    const lines = numbered(session());
    lines[5]!.ordinal = 4;
    expect(await findings(lines)).toEqual(['6 sequence-out-of-order warning | Codex thread history: thread history projection for … expected ordinal 5, got 4']);
  });

  it('reports a gap and a number that goes back, only at the first line off, with how many follow', async () => {
    const gap = numbered(session());
    for (const value of gap.slice(3)) value.ordinal += 2;
    expect(await findings(gap)).toEqual(['4 sequence-out-of-order warning | Codex thread history: thread history projection for … expected ordinal 3, got 5; 0 rejected rollout lines cannot cover that gap']);
    const back = numbered(session());
    back[2]!.ordinal = 0;
    back[6]!.ordinal = 1;
    const report = await scanText(jsonl(back));
    expect(report.map((f) => `${f.line} ${f.rule}`)).toEqual(['3 sequence-out-of-order']);
    expect(report[0]!.message).toMatch(/expected 2; 1 line after it needs another number too\. The agent's own resume reads past it; its thread history stops here\.$/);
  });

  it('reports a line without a number after numbered ones, however the number is spoilt: a warning inside the file, which Codex resumes', async () => {
    for (const spoilt of [undefined, '5', 5.5, -1, null]) {
      const lines = numbered(session());
      lines[5]!.ordinal = spoilt;
      if (spoilt === undefined) delete lines[5]!.ordinal;
      expect(await findings(lines), String(spoilt)).toEqual(['6 missing-sequence-number warning | Codex thread history: paginated rollout line for … is missing an ordinal']);
    }
  });

  it('reports a last line without a number as an error: Codex will not resume the file', async () => {
    const lines = numbered(session());
    delete lines[7]!.ordinal;
    expect(await findings(lines)).toEqual(['8 missing-sequence-number error | Codex resume: final paginated rollout record at … is missing an ordinal']);
    const report = await scanText(jsonl(lines));
    expect(report[0]!.message).toMatch(/will not resume the file\.$/);
  });

  it('is reported when the line lies in history a compaction removed: the count is broken wherever it is', async () => {
    resetClock();
    const lines = numbered([meta(), user('a'), assistant('b'), { timestamp: '2026-01-05T08:00:09.000Z', type: 'compacted', payload: { message: 'summary', replacement_history: [] } }, user('c')]);
    lines[2]!.ordinal = 1;
    expect(await findings(lines)).toEqual(['3 sequence-out-of-order warning | Codex thread history: thread history projection for … expected ordinal 2, got 1']);
  });

  it('repair numbers again from the first bad line only, leaving the lines before it byte for byte', async () => {
    const lines = numbered(session());
    lines[5]!.ordinal = 4;
    lines[6]!.ordinal = 5;
    lines[7]!.ordinal = 6;
    const text = jsonl(lines);
    const { output: repaired, lines: after, report } = await repairText(text);
    expect(after.map((value) => value.ordinal)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(repaired.split('\n').slice(0, 5)).toEqual(text.split('\n').slice(0, 5));
    expect(report.findings).toEqual([]);
    expect(report.repair.lines.rewritten).toEqual([6, 7, 8]);
    // Only the number changed on a renumbered line.
    expect(JSON.parse(repaired.split('\n')[6]!)).toEqual({ ...lines[6], ordinal: 6 });
  });

  it('repair gives a number to a line that has none, where Codex writes it', async () => {
    const lines = numbered(session());
    delete lines[7]!.ordinal;
    const { output: repaired } = await repairText(jsonl(lines));
    expect(repaired.split('\n')[7]).toMatch(/^\{"timestamp":"[^"]+","type":"response_item","payload":\{.*\},"ordinal":7\}$/);
  });

  for (const mode of MODES) {
    it(`${mode}: lines dropped and added by other fixes leave a count with no repeat and no gap, and a second repair changes nothing`, async () => {
      resetClock();
      const lines = numbered([
        meta(),
        turnContext(),
        user('run it'),
        reasoning(),
        call('function', 'call_lost'),
        tokens(),
        user('and now?'),
        output('custom', 'call_nobody'),
        assistant('done'),
        call('custom', 'call_b'),
        output('custom', 'call_b'),
        output('custom', 'call_b'),
      ]);
      const text = jsonl(lines).replace('"ordinal":8,', '"ordinal":8,"broken":').split('\n');
      text.splice(9, 0, '{"timestamp":"2026-01-05T08:00:09.000Z","ordinal":9,"type":"event_');
      const first = await repairText(text.join('\n'), mode);
      expect(first.report.findings).toEqual([]);
      expect(counted(first.lines)).toBe(true);
      expect(first.lines[0]!.ordinal).toBe(0);
      expect(first.lines.filter((value) => value.payload.role === 'user').map((value) => value.payload.content[0].text)).toEqual(['run it', 'and now?']);
      const second = await repairText(first.output, mode);
      expect(second.output).toBe(first.output);
      expect(second.report.repair.changed).toBe(false);
    });
  }

  it('a rebuilt header gets the number before the first line’s', async () => {
    const lines = numbered(session()).slice(1);
    const { lines: after, report } = await repairText(jsonl(lines), 'discard', 'rollout-2026-01-05T08-00-00-7c0a3e52-91d4-4f6b-8a2e-5b9c1d0e7f34.jsonl');
    expect(report.findings).toEqual([]);
    expect(after[0]!.type).toBe('session_meta');
    expect(after.map((value) => value.ordinal)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
