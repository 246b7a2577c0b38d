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
        expect(check.duplicateCallIds).toEqual([]);
        expect(check.invalidToolNames).toEqual([]);
        expect(check.messages).toBeGreaterThan(0);
      });
    }
  }
});

/** pi itself pairs only canonical shapes: a canonicalized legacy file must pass its strict check. */
describe('canonicalized legacy shapes load cleanly in strict pi', () => {
  it('legacy-shapes.jsonl is broken for pi before, clean after', async () => {
    const { canonicalRewrite, rewriteInput } = await import('../../src/pipeline/rewrite.js');
    const { Writable } = await import('node:stream');
    const file = join(FIXTURES, 'pi', 'legacy-shapes.jsonl');
    const before = await piContextCheck(readFileSync(file, 'utf8'), { aliases: false });
    expect(before.orphanResults.length).toBeGreaterThan(0);
    const chunks: Buffer[] = [];
    const stream = new Writable({ write: (chunk, _e, done) => (chunks.push(Buffer.from(chunk)), done()) });
    await rewriteInput(file, undefined, canonicalRewrite, { kind: 'stream', stream });
    const after = await piContextCheck(Buffer.concat(chunks).toString('utf8'), { aliases: false });
    expect(after.unansweredCalls).toEqual([]);
    expect(after.orphanResults).toEqual([]);
  });
});
