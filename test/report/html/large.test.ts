import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { scanFile } from '../../../src/pipeline/scan.js';
import { htmlReporter } from '../../../src/report/html/index.js';

const ROUNDS = 25_000;

/**
 * A pi session of 100,000 entries: a compaction early on, an abandoned branch, and three broken
 * places far apart (a call with no result, an unreadable line, a result for no call).
 */
function largeSession(): { jsonl: string; entries: number; expected: Map<number, string> } {
  const lines: string[] = [JSON.stringify({ type: 'session', version: 3, id: 'large', timestamp: '2026-03-02T09:00:00.000Z', cwd: '/workspace/demo' })];
  const expected = new Map<number, string>();
  let last: string | null = null;
  let counter = 0;
  const add = (body: Record<string, unknown>, parent: string | null = last): string => {
    const id = (++counter).toString(16).padStart(8, '0');
    lines.push(JSON.stringify({ type: 'message', id, parentId: parent, timestamp: '2026-03-02T09:00:01.000Z', ...body }));
    last = id;
    return id;
  };
  const message = (role: string, content: unknown[], extra: Record<string, unknown> = {}) => ({ message: { role, content, ...extra } });
  const say = (words: string) => [{ type: 'text', text: words }];
  const toolCall = (id: string) => [{ type: 'text', text: 'Looking.' }, { type: 'toolCall', id, name: 'read', arguments: { path: 'a.md' } }];
  for (let round = 0; round < ROUNDS; round++) {
    if (round === 5_000) {
      lines.push(JSON.stringify({ type: 'compaction', id: 'compact1', parentId: last, timestamp: '2026-03-02T09:00:01.000Z', summary: 'Earlier work, summarised.', firstKeptEntryId: 'keep0001', tokensBefore: 90000 }));
      last = 'compact1';
    }
    if (round === 12_000) {
      const fork: string | null = last;
      for (let i = 0; i < 250; i++) add(message('user', say(`branch question ${i}`)));
      add(message('assistant', say('abandoned'), { stopReason: 'stop' }));
      last = fork;
    }
    add(message('user', say(`question ${round}`)), last);
    if (round === 4_990) lines[lines.length - 1] = lines.at(-1)!.replace(/"id":"[0-9a-f]+"/, `"id":"keep0001"`), (last = 'keep0001');
    const call = `call_${round}`;
    add(message('assistant', toolCall(call), { stopReason: 'toolUse' }));
    // The call answered by a result that names another call is left unanswered too.
    if (round === 20_000) expected.set(lines.length, 'missing-tool-result');
    if (round === 7_500) {
      expected.set(lines.length, 'missing-tool-result');
      add(message('user', say('no answer came')));
    } else {
      add(message('toolResult', say('ok'), { toolCallId: round === 20_000 ? 'call_nobody' : call, toolName: 'read' }));
      if (round === 20_000) expected.set(lines.length, 'orphan-tool-result');
    }
    if (round === 15_000) {
      lines.push('{"type":"message","id":"torn", "message": {');
      expected.set(lines.length, 'invalid-json');
    }
    add(message('assistant', say(`answer ${round}`), { stopReason: 'stop' }));
  }
  return { jsonl: lines.join('\n') + '\n', entries: lines.length, expected };
}

describe('html reporter on a large file', () => {
  it('draws only the neighbourhood of each finding and stays small', async () => {
    const { jsonl, entries, expected } = largeSession();
    const dir = mkdtempSync(join(tmpdir(), 'html-large-'));
    const path = join(dir, 'large.jsonl');
    writeFileSync(path, jsonl);
    const scanStart = performance.now();
    const report = await scanFile(path, undefined, undefined, false, { timeline: true });
    const scanMs = performance.now() - scanStart;
    expect(new Map(report.findings.filter((f) => f.severity === 'error').map((f) => [f.line, f.rule]))).toEqual(expected);

    const renderStart = performance.now();
    const html = htmlReporter([report], { color: false });
    const renderMs = performance.now() - renderStart;
    const bytes = Buffer.byteLength(html);
    console.log(
      `html report of ${entries.toLocaleString('en-US')} lines (${(statSync(path).size / 2 ** 20).toFixed(1)} MiB): ${(bytes / 1024).toFixed(1)} KiB page, ` +
        `scan with timeline ${scanMs.toFixed(0)} ms, render ${renderMs.toFixed(1)} ms`,
    );
    expect(bytes).toBeLessThan(512 * 1024);

    const { document } = parseHTML(html);
    const turns = document.querySelectorAll('li.turn');
    expect(turns.length).toBeLessThanOrEqual(report.findings.length * 7 + 7);
    for (const [line, rule] of expected) {
      const card = document.querySelector(`.finding[data-rule="${rule}"][data-line="${line}"]`);
      expect(card?.closest('li.turn')?.getAttribute('data-line')).toBe(String(line));
    }
    // Everything else is counted in gaps, and the counts add up to the file.
    const gaps = [...document.querySelectorAll('li.gap')];
    const counted = gaps.reduce((sum, gap) => sum + Number(gap.getAttribute('data-turns')), 0);
    const folded = report.timeline!.items.reduce((sum, item) => sum + (item.type === 'gap' ? item.foldedEntries : 0), 0);
    const { replayed, compacted, abandoned } = report.timeline!.counts;
    expect(counted + folded + turns.length - 1).toBe(replayed + compacted + abandoned);
    expect(compacted).toBeGreaterThan(19_000);
    expect(abandoned).toBe(251);
    // The compacted history and the abandoned branch have no finding: they stay inside the gaps, counted.
    expect(gaps.map((gap) => gap.textContent)).toEqual([
      '… 10,039 turns, 1 folded region (19,960 entries) not shown (lines 2–30,000) …',
      '… 29,995 turns, 1 folded region (251 entries) not shown (lines 30,008–60,253) …',
      '… 19,992 turns not shown (lines 60,261–80,252) …',
      '… 19,994 turns not shown (lines 80,261–100,254) …',
    ]);
  });
});
