import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repairText } from '../helpers/repair-tester.js';
import { qwenResume } from './qwen-session.js';

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'qwen-code');
const files = readdirSync(DIR).filter((name) => name.endsWith('.jsonl'));

/** The user prompts a file holds, in file order, whatever branch they are on. */
function prompts(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
    .filter((record) => record.type === 'user')
    .flatMap((record) => record.message.parts.map((part: { text?: string }) => part.text));
}

describe('Qwen Code itself meets the damage in the broken fixtures', () => {
  it('missing-tool-result: it would inject a result for the call', async () => {
    expect((await qwenResume(readFileSync(join(DIR, 'missing-tool-result.jsonl'), 'utf8'))).injected).toEqual(['call_1_0_0']);
  });
  it('duplicate-tool-result: it would drop the repeated response', async () => {
    expect((await qwenResume(readFileSync(join(DIR, 'duplicate-tool-result.jsonl'), 'utf8'))).droppedDuplicates).toEqual(['call_1_0_0']);
  });
  it('unknown-parent: its walk stops at the gap and the first prompt is not sent', async () => {
    const resumed = await qwenResume(readFileSync(join(DIR, 'unknown-parent.jsonl'), 'utf8'));
    expect(resumed.gaps).toEqual(['d41d8cd9-8f00-4b20-9e98-0998ecf8427e']);
    expect(resumed.userTexts).toEqual(['And the tests?']);
  });
});

/** What Qwen Code builds from a repaired file: no gap, nothing to inject or drop, every prompt of the replayed chain still sent. */
describe('repaired fixtures load cleanly in Qwen Code', () => {
  for (const mode of ['discard', 'synthetic'] as const) {
    for (const name of files) {
      it(`${mode}: ${name}`, async () => {
        const original = readFileSync(join(DIR, name), 'utf8');
        const { output } = await repairText(original, mode, name);
        const resumed = await qwenResume(output);
        expect(resumed.gaps).toEqual([]);
        expect(resumed.injected).toEqual([]);
        expect(resumed.droppedDuplicates).toEqual([]);
        expect(resumed.contents).toBeGreaterThan(0);
        // Every prompt the file holds is still in it; those the client sends are a subset (rewound ones stay on their branch).
        expect(prompts(output)).toEqual(prompts(original));
        for (const text of resumed.userTexts) expect(prompts(output).concat(summaries(output))).toContain(text);
        // Re-linked across the gap: the prompt before it is sent again.
        if (name === 'unknown-parent.jsonl') expect(resumed.userTexts).toEqual(['What does src/app.py do?', 'And the tests?']);
      });
    }
  }
});

/** Texts of compressed histories, which the client sends as user turns in place of what they summarise. */
function summaries(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.includes('"chat_compression"'))
    .flatMap((line) => JSON.parse(line).systemPayload.compressedHistory.flatMap((content: { parts: Array<{ text?: string }> }) => content.parts.map((part) => part.text)));
}
