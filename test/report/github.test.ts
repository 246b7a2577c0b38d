import { describe, expect, it } from 'vitest';
import { githubReporter } from '../../src/report/github.js';
import { reports } from './fixtures.js';
import { expectGolden } from './golden.js';

describe('github reporter', () => {
  it('matches the golden file', () => {
    expectGolden('github.txt', githubReporter(reports, { color: false }));
  });

  it('prints nothing when there is nothing to annotate', () => {
    const quiet = reports.filter((report) => report.findings.length === 0 && report.verdicts === undefined);
    const passed = { path: 'p.jsonl', format: 'pi', findings: [], verdicts: [{ line: 2, verdict: 'PASS' as const }, { line: 4, verdict: 'SKIPPED' as const }] };
    expect(githubReporter([...quiet, passed], { color: false })).toBe('');
  });

  it('keeps every annotation on one line whatever the message and path hold', () => {
    const output = githubReporter(reports, { color: false });
    expect(output.endsWith('\n')).toBe(true);
    for (const line of output.slice(0, -1).split('\n')) expect(line).toMatch(/^::(error|warning|notice) [^:]*::[^\r\n]*$/);
  });
});
