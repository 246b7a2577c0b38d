import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-cli.js';
// The built pool: under the TypeScript sources there is no compiled worker to start.
import { scanFiles, type Outcome } from '../../dist/pipeline/scan-pool.js';
import { rules } from '../../dist/rules/index.js';

const fixtures = readdirSync(join(ROOT, 'fixtures', 'pi'))
  .filter((name) => name.endsWith('.jsonl'))
  .map((name) => join(ROOT, 'fixtures', 'pi', name));
const missing = join(ROOT, 'fixtures', 'no-such-session.jsonl');
// Many copies, with an unreadable one in the middle: every thread takes many files, several at
// once, and sends batches while others are still being scanned.
const copies = (n: number) => Array.from({ length: n }, () => fixtures).flat();
const paths = [...copies(2), missing, ...copies(8)];

async function run(jobs: number): Promise<{ outcomes: Outcome[]; progress: number[] }> {
  const progress: number[] = [];
  const outcomes = await scanFiles(paths, { jobs, rules, overrides: {}, onDone: (done) => progress.push(done) });
  return { outcomes, progress };
}

const simple = (outcome: Outcome) => ('report' in outcome ? outcome.report : { error: outcome.error.message, code: outcome.error.code });

describe('scanFiles', () => {
  it.each([2, 3])('gives with %i threads what one thread gives, file by file, in order', async (jobs) => {
    const [one, many] = await Promise.all([run(1), run(jobs)]);
    expect(Object.keys(many.outcomes)).toHaveLength(paths.length); // no file left without an outcome
    expect(many.outcomes.map(simple)).toEqual(one.outcomes.map(simple));
    expect(many.outcomes.map((outcome) => ('report' in outcome ? outcome.report.path : missing))).toEqual(paths);
  });

  it('reports a file it cannot read as that file’s error, and goes on', async () => {
    const { outcomes } = await run(2);
    const failed = outcomes[2 * fixtures.length]!;
    expect('error' in failed && failed.error.code).toBe('ENOENT');
    expect(outcomes.filter((outcome) => 'error' in outcome)).toHaveLength(1);
  });

  it('counts progress up to every file, never backwards', async () => {
    const { progress } = await run(2);
    expect(progress.at(-1)).toBe(paths.length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });
});
