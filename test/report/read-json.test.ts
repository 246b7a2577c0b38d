import { describe, expect, it } from 'vitest';
import { jsonDocument } from '../../src/report/json-document.js';
import { mergeReports } from '../../src/report/merge.js';
import { fileReportsOf, parseJsonReport } from '../../src/report/read-json.js';
import { reports } from './fixtures.js';

/** merge-reports rebuilds reports from JSON documents: what comes back must write the same document again. */
describe('JSON reports read back', () => {
  it('round-trips scan, repair, verify and standard-input reports through the document', () => {
    const document = jsonDocument(reports, 'abc123');
    const parsed = parseJsonReport(JSON.stringify(document));
    expect(typeof parsed).toBe('object');
    expect(jsonDocument(fileReportsOf(parsed as Exclude<typeof parsed, string>), 'abc123')).toEqual(document);
  });

  it('merges halves into the whole, in path order', () => {
    const whole = jsonDocument(reports, 'abc123');
    const halves = [jsonDocument(reports.slice(0, 2), 'abc123'), jsonDocument(reports.slice(2), 'abc123')];
    const merged = mergeReports(halves.reverse().map((document, i) => ({ name: `r${i}.json`, document })));
    const sorted = [...reports].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    expect(jsonDocument(merged.reports, merged.ruleSet)).toEqual({ ...whole, files: jsonDocument(sorted).files });
  });

  it('refuses what is not a report, saying why', () => {
    const good = jsonDocument(reports);
    const cases: Array<[unknown, RegExp]> = [
      [[], /not a transcript-doctor JSON report/],
      [{ ...good, version: 2 }, /not a transcript-doctor JSON report/],
      [{ ...good, tool: { name: 'eslint', version: '9' } }, /without its tool version/],
      [{ ...good, ruleSet: 7 }, /ruleSet is not a string/],
      [{ ...good, files: [{ path: 'a', format: 'pi' }] }, /files\[0\]: not a file entry/],
      [{ ...good, files: [{ path: 'a', format: 'pi', findings: [{ rule: 'r', severity: 'error', line: 1, message: 'm' }] }] }, /without pointer or message/],
      [{ ...good, files: [{ path: 'a', format: 'pi', findings: [], verdicts: [{ line: 1, verdict: 'MAYBE' }] }] }, /a verdict without line or verdict/],
    ];
    for (const [value, reason] of cases) expect(parseJsonReport(JSON.stringify(value))).toMatch(reason);
    expect(parseJsonReport('{')).toBe('not valid JSON');
  });
});
