import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repairText } from '../helpers/repair-tester.js';
import { piContextCheck } from './pi-context.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const files = ['pi', 'demo'].flatMap((dir) => readdirSync(join(FIXTURES, dir)).filter((name) => name.endsWith('.jsonl')).map((name) => `${dir}/${name}`));

/** What pi itself builds from a repaired file: every call answered, no result without its call. */
describe('repaired fixtures load cleanly in pi', () => {
  for (const mode of ['discard', 'synthetic'] as const) {
    for (const name of files) {
      it(`${mode}: ${name}`, async () => {
        const { output } = await repairText(readFileSync(join(FIXTURES, name)), mode, name.split('/')[1]);
        const check = await piContextCheck(output);
        expect(check.unansweredCalls).toEqual([]);
        expect(check.orphanResults).toEqual([]);
        expect(check.messages).toBeGreaterThan(0);
      });
    }
  }
});
