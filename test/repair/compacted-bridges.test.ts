import { describe, expect, it } from 'vitest';
import { contractProblems, userTexts } from '../helpers/provider-check.js';
import { repairFor, scanFor } from '../helpers/provider-repair.js';
import { call, Session } from '../helpers/session.js';

/**
 * After a compaction pi sends its summary, then the history from the compaction's kept point on:
 * what comes before is never sent again. Turn-order bridges go only where the rules report,
 * in what is sent; a turn-order problem in the history left behind stays as it is.
 */

/** A Gemini call turn after a reply, once before the kept point (line 4) and once after it (line 7). */
function gemini(): string {
  return new Session()
    .user('start')
    .reply('Looking.')
    .calls(call('c1'))
    .result('c1')
    .reply('Kept from here.')
    .calls(call('c2'))
    .result('c2')
    .entry({ type: 'compaction', summary: 'earlier work', firstKeptEntryId: '00000005', tokensBefore: 10 })
    .user('next')
    .reply('done')
    .jsonl();
}

/** A Mistral user message (ids in Mistral's shape, so only the bridge changes anything) right after tool results, before the kept point (line 5) and after it (line 9). */
function mistral(): string {
  return new Session()
    .user('start')
    .calls(call('Ab3dE6gH9'))
    .result('Ab3dE6gH9')
    .user('Interrupting.')
    .reply('Kept from here.')
    .user('Go on.')
    .calls(call('Zx9yW8vU7'))
    .result('Zx9yW8vU7')
    .user('Again.')
    .entry({ type: 'compaction', summary: 'earlier work', firstKeptEntryId: '00000005', tokensBefore: 10 })
    .user('next')
    .reply('done')
    .jsonl();
}

const cases = [
  { provider: 'gemini', rule: 'call-turn-order', jsonl: gemini(), line: 7, role: 'user', text: '(continue)' },
  { provider: 'mistral', rule: 'user-after-tool-result', jsonl: mistral(), line: 10, role: 'assistant', text: 'I have processed the tool results.' },
] as const;

describe('turn-order bridges in a compacted pi session go only into what is sent', () => {
  for (const { provider, rule, jsonl, line, role, text } of cases) {
    for (const mode of ['discard', 'synthetic'] as const) {
      it(`${provider} (${rule}), ${mode}: one bridge, after the kept point; the history before it is byte for byte as it was`, async () => {
        expect((await scanFor(jsonl, provider)).filter((finding) => finding.rule === rule).map((finding) => finding.line)).toEqual([line]);
        const once = await repairFor(jsonl, provider, mode);
        const before = jsonl.trim().split('\n');
        const after = once.trim().split('\n');
        expect(after).toHaveLength(before.length + 1);
        // Everything up to the line before the reported one is untouched, the bridge comes next, and the reported line hangs on it.
        expect(after.slice(0, line - 1)).toEqual(before.slice(0, line - 1));
        const bridge = JSON.parse(after[line - 1]!);
        expect(bridge.message.role).toBe(role);
        expect(bridge.message.content).toEqual([{ type: 'text', text }]);
        expect(bridge.parentId).toBe(JSON.parse(before[line - 2]!).id);
        expect(JSON.parse(after[line]!)).toEqual({ ...JSON.parse(before[line - 1]!), parentId: bridge.id });
        expect(after.slice(line + 1)).toEqual(before.slice(line));
        expect(contractProblems(once, provider)).toEqual([]);
        expect(userTexts(once).filter((value) => value !== '(continue)')).toEqual(userTexts(jsonl));
        expect((await scanFor(once, provider)).filter((finding) => finding.severity === 'error')).toEqual([]);
        expect(await repairFor(once, provider, mode)).toBe(once);
      });
    }
  }
});
