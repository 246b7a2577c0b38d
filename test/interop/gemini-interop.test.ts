import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repairBytes } from '../helpers/repair-tester.js';
import { geminiHistoryCheck } from './gemini-history.js';

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
        // Every prompt the user saw is still sent (a rewind that wiped them gives them back).
        expect(after.prompts).toBeGreaterThanOrEqual(before.prompts);
        expect(after.turns).toBeGreaterThan(0);
      });
    }
  }
});
