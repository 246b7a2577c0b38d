import { describe, expect, it } from 'vitest';
import { QwenSession } from '../../formats/qwen-code/session.js';
import { qwenResume } from '../../interop/qwen-session.js';
import { compact, pairingProblems } from './compact.js';

function session(turns: number): string {
  const s = new QwenSession();
  for (let t = 0; t < turns; t++) {
    s.user(`request ${t}: tidy the module`);
    s.calls([`call_read_${t}`, `call_write_${t}`]);
    s.result(`call_read_${t}`);
    s.result(`call_write_${t}`, 'write_file');
    s.answer(`answer ${t}`);
    (s.records.at(-1) as Record<string, unknown>).usageMetadata = { promptTokenCount: 900_000 + t, totalTokenCount: 900_010 + t };
  }
  return s.text();
}

describe('Qwen Code chat_compression record', () => {
  it("Qwen Code's own loader resumes with the summary, then every kept turn, paired", async () => {
    const original = session(5);
    const before = await qwenResume(original);
    const { text, plan, after } = await compact(original, 12);
    // Appended: every line before stays byte for byte, recorded usage included.
    expect(text.startsWith(original)).toBe(true);
    const resumed = await qwenResume(text);
    expect(resumed.userTexts[0]).toBe(plan.summary);
    // Position 12 is a result of turn 2: the cut moves back to its calls, which follow the summary with no acknowledgement between.
    expect(plan.keepFrom).toBe(11);
    expect(resumed.userTexts.slice(1)).toEqual(before.userTexts.slice(3));
    expect(resumed.injected).toEqual([]);
    expect(resumed.droppedDuplicates).toEqual([]);
    expect(resumed.contents).toBe(before.contents - plan.keepFrom + 1);
    expect(pairingProblems(after)).toEqual({});
  });

  it('answers the summary with the acknowledgement Qwen Code writes when the kept history opens on a prompt', async () => {
    const { text } = await compact(session(4), 10);
    const history = JSON.parse(text.trimEnd().split('\n').at(-1)!).systemPayload.compressedHistory;
    expect(history.slice(0, 3).map((content: { role: string }) => content.role)).toEqual(['user', 'model', 'user']);
    expect(history[1].parts[0].text).toBe('Got it. Thanks for the additional context!');
    expect(history[2].parts[0].text).toBe('request 2: tidy the module');
  });

  it('gives Qwen Code the new size to read on resume in place of the usage recorded before it', async () => {
    const { text } = await compact(session(4), 10);
    const record = JSON.parse(text.trimEnd().split('\n').at(-1)!);
    expect(record).toMatchObject({ type: 'system', subtype: 'chat_compression', parentUuid: '00000000-0000-4000-8000-000000000020' });
    expect(record.systemPayload.info).toMatchObject({ originalTokenCount: 123456, compressionStatus: 1, newTokenCountIsEstimated: true });
    expect(record.systemPayload.info.newTokenCount).toBeGreaterThan(0);
    expect(record.systemPayload.info.newTokenCount).toBeLessThan(2000);
    expect(text).toContain('"promptTokenCount":900003');
  });
});
