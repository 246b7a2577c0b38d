import { describe, expect, it } from 'vitest';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { assistant, call, jsonl, line, meta, output, resetClock, turnContext, user, type Line } from './rollout.js';

const rollback = (turns: number): Line => line('event_msg', { type: 'thread_rolled_back', num_turns: turns });

async function findings(lines: Line[]): Promise<string[]> {
  return (await scanText(jsonl(lines))).map((f) => `${f.line} ${f.rule} ${f.severity}`);
}

describe('Codex thread_rolled_back', () => {
  it('takes the last N user turns out of the history: a break only there is a warning, one before them stays an error', async () => {
    resetClock();
    const undone = [meta(), turnContext(), user('a'), assistant('ok'), user('b'), call('function', 'call_x'), user('c'), assistant('hm'), rollback(2), user('d'), assistant('done')];
    const report = await scanText(jsonl(undone));
    expect(report.map((f) => `${f.line} ${f.rule} ${f.severity}`)).toEqual(['6 missing-tool-result warning']);
    expect(report[0]!.message).toMatch(/not replayed/);
    const kept = [meta(), turnContext(), user('a'), call('function', 'call_x'), user('b'), assistant('hm'), rollback(1), user('d'), assistant('done')];
    expect(await findings(kept)).toEqual(['4 missing-tool-result error']);
  });

  it('an output whose call was taken back is an orphan in the history Codex rebuilds', async () => {
    resetClock();
    const lines = [meta(), user('a'), call('function', 'call_x'), rollback(1), output('function', 'call_x'), assistant('?')];
    expect(await findings(lines)).toContain('5 orphan-tool-result error');
  });

  it('rolls back no further than the last compaction, and counts each marker against what the one before left', async () => {
    resetClock();
    const compacted = line('compacted', { message: 'summary', replacement_history: [] });
    const lines = [meta(), user('a'), call('function', 'call_x'), output('function', 'call_x'), compacted, user('b'), assistant('b!'), rollback(5), user('c'), call('custom', 'call_y'), rollback(1), user('d'), assistant('done')];
    expect(await findings(lines)).toEqual(['10 missing-tool-result warning']);
  });

  it('ignores a marker without a usable count', async () => {
    resetClock();
    for (const turns of [0, -1, '1', 1.5, null]) {
      const lines = [meta(), user('a'), call('function', 'call_x'), line('event_msg', { type: 'thread_rolled_back', num_turns: turns }), user('b')];
      expect(await findings(lines), String(turns)).toEqual(['3 missing-tool-result error']);
    }
  });

  it('repair fixes what is still replayed, leaves the turns taken back as they are, and is idempotent', async () => {
    resetClock();
    const lines = [meta(), user('a'), call('function', 'call_kept'), user('b'), call('custom', 'call_undone'), rollback(1), user('c'), assistant('done')];
    for (const mode of ['discard', 'synthetic'] as const) {
      const once = await repairText(jsonl(lines), mode);
      expect(once.report.findings.map((f) => `${f.rule} ${f.severity}`), mode).toEqual(['missing-tool-result warning']);
      expect(once.lines.some((value) => value.payload.call_id === 'call_undone'), mode).toBe(true);
      expect((await repairText(once.output, mode)).output, mode).toBe(once.output);
    }
  });
});
