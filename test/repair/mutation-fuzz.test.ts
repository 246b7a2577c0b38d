import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// Plain JavaScript shared with `npm run harden`, which runs the same fuzz over the real corpus.
import { mutate } from '../../harden/lib/mutations.mjs';
import { repairBytes } from '../helpers/repair-tester.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const files = ['pi', 'claude-code', 'demo', 'codex', 'gemini-cli'].flatMap((dir) => readdirSync(join(FIXTURES, dir)).filter((name) => name.endsWith('.jsonl')).map((name) => join(FIXTURES, dir, name)));
/** Findings repair leaves for a person on purpose (see each rule's doc). */
const LEFT_BY_DESIGN = new Set(['duplicate-entry-id', 'lost-logical-parent']);
const RUNS = Number(process.env.TD_FUZZ_RUNS ?? 120);

describe('mutation fuzz over the fixtures (the fast part of harden/fuzz.mjs)', () => {
  it(`${RUNS} seeded mutants: one repair leaves no fixable error, a second changes nothing`, async () => {
    const problems: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const seed = 7919 * (run + 1);
      const file = files[run % files.length]!;
      const { bytes, done } = mutate(readFileSync(file), seed, 1 + (seed % 3));
      const mode = run % 2 === 0 ? 'discard' : 'synthetic';
      const label = `${file.split('/').slice(-2).join('/')} seed ${seed} ${done.join('+')} ${mode}`;
      const first = await repairBytes(bytes, mode);
      if (first.report.format === null) continue;
      const left = first.report.findings.filter((f) => f.severity === 'error' && !LEFT_BY_DESIGN.has(f.rule));
      if (left.length > 0) problems.push(`${label}: left ${left.map((f) => `${f.line}:${f.rule}`).join(' ')}`);
      if ((await repairBytes(first.output, mode)).report.repair.changed) problems.push(`${label}: not idempotent`);
    }
    expect(problems).toEqual([]);
  });
});
