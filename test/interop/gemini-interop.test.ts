import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repairBytes } from '../helpers/repair-tester.js';
import { geminiHistoryCheck } from './gemini-history.js';
import { clientWrittenSessions, generatedSessions } from './gemini-sessions.js';

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'gemini-cli');
const files = readdirSync(DIR).filter((name) => name.endsWith('.jsonl') || name.endsWith('.json'));
/** Fixtures whose history Gemini CLI 0.61.0 itself sends with unequal counts. */
const UNEQUAL = ['duplicate-responses.jsonl', 'missing-tool-result.jsonl', 'torn-final-line.jsonl', 'session-2026-03-09T14-00-3f9c2a71.json', 'checkpoint-before-refactor.json'];
/** Fixtures whose history the Gemini API refuses for something else: a first turn of calls, a misnamed response, a blank text part. */
const REFUSED = ['calls-open-history.jsonl', 'result-name-mismatch.jsonl', 'blank-text-part.jsonl'];

/** What Gemini CLI itself builds from each fixture, before and after repair. */
describe('repaired Gemini CLI sessions load in the client with as many responses as calls', () => {
  for (const name of files) {
    it(`as written: ${name}`, async () => {
      const check = await geminiHistoryCheck(readFileSync(join(DIR, name), 'utf8'), name);
      expect(check.unequal.length > 0).toBe(UNEQUAL.includes(name));
      expect(check.refused.length > 0).toBe(REFUSED.includes(name));
    });
    for (const mode of ['discard', 'synthetic'] as const) {
      it(`${mode}: ${name}`, async () => {
        const original = readFileSync(join(DIR, name), 'utf8');
        const output = (await repairBytes(original, mode, name)).output.toString('utf8');
        const before = await geminiHistoryCheck(original, name);
        const after = await geminiHistoryCheck(output, name);
        expect(after.unequal).toEqual([]);
        expect(after.refused).toEqual([]);
        // Nothing for the client to mend, but the placeholder repair empties on a line of its own, which the client then leaves out.
        expect(after.patched.length).toBe(name === 'placeholder-turn.jsonl' ? 1 : 0);
        // Every prompt the user saw is still sent (a rewind that wiped them gives them back).
        expect(after.prompts).toBeGreaterThanOrEqual(before.prompts);
        expect(after.turns).toBeGreaterThan(0);
      });
    }
  }
});

/** Sessions of every ending, generated and written by the client's own recorder: repaired, the client's loader has nothing left to mend. */
describe('repaired Gemini CLI sessions leave the client nothing to patch when it resumes them', async () => {
  const sessions = [...generatedSessions(), ...(await clientWrittenSessions())];
  it('holds 20 generated and 6 client-written sessions, of which the client patches some as written', async () => {
    expect(sessions.filter(({ name }) => name.startsWith('generated')).length).toBe(20);
    expect(sessions.filter(({ name }) => name.startsWith('client-written')).length).toBe(6);
    const patched = await Promise.all(sessions.map(async ({ text }) => (await geminiHistoryCheck(text)).patched.length > 0));
    expect(patched.filter(Boolean).length).toBeGreaterThan(0);
  });
  for (const { name, text } of sessions) {
    for (const mode of ['discard', 'synthetic'] as const) {
      it(`${mode}: ${name}`, async () => {
        const output = (await repairBytes(text, mode)).output.toString('utf8');
        const before = await geminiHistoryCheck(text);
        const after = await geminiHistoryCheck(output);
        expect(after.patched).toEqual([]);
        expect(after.unequal).toEqual([]);
        expect(after.refused).toEqual([]);
        expect(after.prompts).toBe(before.prompts);
        // A fixed point: a second repair writes the same bytes.
        expect((await repairBytes(output, mode)).output.toString('utf8')).toBe(output);
      });
    }
  }
});
