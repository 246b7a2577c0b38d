import { describe, expect, it } from 'vitest';
import type { FileReport, Finding } from '../../src/pipeline/finding.js';
import { emptyCounts } from '../../src/repair/plan.js';
import { foldRepeats, SHOWN_PER_RULE } from '../../src/report/fold.js';
import { ruleCounts } from '../../src/report/statistics.js';
import { stylishReporter } from '../../src/report/stylish.js';

function garbage(lines: number, rule = 'invalid-json'): Finding[] {
  const findings: Finding[] = [];
  for (let line = 1; line <= lines; line++) findings.push({ rule, severity: 'error', line, pointer: '', message: `Line ${line} is not valid JSON.` });
  return findings;
}

describe('foldRepeats', () => {
  it('keeps the first few of each rule in order and counts the rest per rule', () => {
    const mixed = [...garbage(6), { rule: 'blank-user-message', severity: 'warning' as const, line: 2, pointer: '', message: 'blank' }].sort((a, b) => a.line - b.line);
    const { shown, more } = foldRepeats(mixed);
    expect(shown.map((f) => `${f.line} ${f.rule}`)).toEqual(['1 invalid-json', '2 invalid-json', '2 blank-user-message', '3 invalid-json']);
    expect(more).toEqual([{ rule: 'invalid-json', count: 3 }]);
  });

  it('shows one extra finding rather than a fold line of the same height', () => {
    expect(foldRepeats(garbage(SHOWN_PER_RULE + 1))).toEqual({ shown: garbage(SHOWN_PER_RULE + 1), more: [] });
    expect(foldRepeats(garbage(SHOWN_PER_RULE + 2)).more).toEqual([{ rule: 'invalid-json', count: 2 }]);
  });
});

describe('stylish reporter with many findings', () => {
  // 300,000 findings: a spread of them as call arguments (Math.max(...)) overflows the stack.
  const huge: FileReport[] = [{ path: 'garbage.jsonl', format: null, findings: garbage(300_000) }];

  it('folds a file of 300,000 identical findings to a screenful and still counts all of them', () => {
    expect(stylishReporter(huge, { color: false })).toBe(
      [
        'garbage.jsonl',
        '  1  error    Line 1 is not valid JSON.  invalid-json',
        '  2  error    Line 2 is not valid JSON.  invalid-json',
        '  3  error    Line 3 is not valid JSON.  invalid-json',
        '              … and 299997 more invalid-json in this file',
        '',
        '✖ 300000 problems (300000 errors, 0 warnings) in 1 of 1 file.',
        '299997 repeats folded: --all-findings shows all, --statistics counts per rule.',
        '',
      ].join('\n'),
    );
  });

  it('--all-findings lists every one, aligned on the widest line number', () => {
    const text = stylishReporter(huge, { color: false, allFindings: true });
    expect(text.split('\n').filter((line) => line.endsWith('invalid-json'))).toHaveLength(300_000);
    expect(text).toContain('\n       1  error    Line 1 is not valid JSON.  invalid-json\n');
    expect(text).toContain('\n  300000  error    Line 300000 is not valid JSON.  invalid-json\n');
    expect(text).not.toContain('folded');
  });

  it('a dry run of a repair lists what is left, folded the same way', () => {
    const repaired: FileReport[] = [{ ...huge[0]!, repair: { changed: false, counts: emptyCounts(), lines: { dropped: [], moved: [], rewritten: [] } } }];
    const text = stylishReporter(repaired, { color: false, dryRun: true });
    expect(text).toContain('  nothing to repair\n');
    expect(text).toContain('… and 299997 more invalid-json in this file\n');
    expect(text).toContain('✖ 300000 problems left (300000 errors, 0 warnings) in 1 of 1 file.\n');
  });

  it("cuts a dry run's list of scattered changed lines after 10 ranges, unless --all-findings", () => {
    const dropped: number[] = [];
    for (let line = 2; line <= 120_000; line += 2) dropped.push(line);
    const report: FileReport = { path: 's.jsonl', format: 'pi', findings: [], repair: { changed: true, counts: { ...emptyCounts(), droppedLines: dropped.length }, lines: { dropped, moved: [], rewritten: [] } } };
    expect(stylishReporter([report], { color: false, dryRun: true })).toContain('\n    drop lines 2, 4, 6, 8, 10, 12, 14, 16, 18, 20 … and 59990 more\n');
    expect(stylishReporter([report], { color: false, dryRun: true, allFindings: true })).toContain(', 119998, 120000\n');
  });

  it('puts the provider error on a dimmed line of its own, under the pointer', () => {
    const report: FileReport = {
      path: 's.jsonl',
      format: 'pi',
      findings: [{ rule: 'missing-tool-result', severity: 'error', line: 5, pointer: '/message/content/1', message: "Tool call 'toolu_01' has no result.", providerError: 'messages.2: `tool_use` ids were found without `tool_result` blocks' }],
    };
    expect(stylishReporter([report], { color: false }).split('\n').slice(1, 4)).toEqual([
      "  5  error    Tool call 'toolu_01' has no result.  missing-tool-result",
      '              at /message/content/1',
      '              messages.2: `tool_use` ids were found without `tool_result` blocks',
    ]);
  });
});

describe('--statistics', () => {
  const reports: FileReport[] = [
    { path: 'a.jsonl', format: 'pi', findings: [...garbage(5), { rule: 'missing-final-newline', severity: 'warning', line: 6, pointer: '', message: 'no newline' }] },
    { path: 'b.jsonl', format: 'pi', findings: [...garbage(2), { rule: 'missing-tool-result', severity: 'error', line: 3, pointer: '', message: 'no result' }, { rule: 'no-such-rule', severity: 'info', line: 4, pointer: '', message: 'from a newer version' }] },
    { path: 'clean.jsonl', format: 'pi', findings: [] },
  ];

  it('counts findings per rule over every file, most frequent first, then by id', () => {
    expect(ruleCounts(reports)).toEqual([
      { rule: 'invalid-json', severity: 'error', count: 7, fix: 'safe' },
      { rule: 'missing-final-newline', severity: 'warning', count: 1, fix: 'safe' },
      { rule: 'missing-tool-result', severity: 'error', count: 1, fix: 'unsafe' },
      { rule: 'no-such-rule', severity: 'info', count: 1, fix: '-' },
    ]);
  });

  it('keeps a rule whose severity differs between merged reports on a row per severity', () => {
    const mixed: FileReport[] = [
      { path: 'a.jsonl', format: 'pi', findings: garbage(2) },
      { path: 'b.jsonl', format: 'pi', findings: [{ ...garbage(1)[0]!, severity: 'warning' }] },
    ];
    expect(ruleCounts(mixed).map((row) => `${row.count} ${row.severity}`)).toEqual(['2 error', '1 warning']);
  });

  it('prints the table instead of the findings, then the summary of every finding', () => {
    expect(stylishReporter(reports, { color: false, statistics: true })).toBe(
      [
        'count  rule                   severity  fix',
        '    7  invalid-json           error     safe',
        '    1  missing-final-newline  warning   safe',
        '    1  missing-tool-result    error     unsafe',
        '    1  no-such-rule           info      -',
        '',
        '✖ 10 problems (8 errors, 1 warning, 1 info) in 2 of 3 files.',
        '',
      ].join('\n'),
    );
  });

  it('prints only the summary when nothing is found', () => {
    expect(stylishReporter([reports[2]!], { color: false, statistics: true })).toBe('✔ No problems in 1 file.\n');
  });
});
