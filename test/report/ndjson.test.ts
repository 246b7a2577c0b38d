import { describe, expect, it } from 'vitest';
import { ndjsonReporter } from '../../src/report/ndjson.js';
import { reports } from './fixtures.js';
import { expectGolden } from './golden.js';

describe('ndjson reporter', () => {
  it('matches the golden file', () => {
    expectGolden('findings.ndjson', ndjsonReporter(reports, { color: false }));
  });

  it('writes one parseable object a line that keeps messages intact', () => {
    const lines = ndjsonReporter(reports, { color: false }).split('\n');
    expect(lines.pop()).toBe('');
    const messages = lines.map((line) => JSON.parse(line)).map((object) => object.message ?? object.feedback);
    expect(messages).toContain(reports[0]!.findings[3]!.message);
  });

  it('prints nothing when there is nothing to report', () => {
    const skipped = { path: 'p.jsonl', format: 'pi', findings: [], verdicts: [{ line: 2, verdict: 'SKIPPED' as const }] };
    expect(ndjsonReporter([{ path: 'clean.jsonl', format: 'pi', findings: [] }, skipped], { color: false })).toBe('');
  });
});
