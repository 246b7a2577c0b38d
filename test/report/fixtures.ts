import type { FileReport } from '../../src/pipeline/finding.js';
import { emptyCounts } from '../../src/repair/plan.js';

const MODEL = 'anthropic/claude-sonnet-4-5';

/**
 * One set of reports every reporter's golden file is made from: a scan with all three severities,
 * a clean file, a repair, a verify run with every verdict, and standard input. Paths hold spaces,
 * commas and colons; messages hold %, CR, LF and XML's special characters.
 */
export const reports: readonly FileReport[] = [
  {
    path: 'logs/session one.jsonl',
    format: 'pi',
    findings: [
      { rule: 'invalid-json', severity: 'error', line: 3, pointer: '', message: 'Line is not valid JSON: 100% of it is <garbage> & "quotes".' },
      {
        rule: 'missing-tool-result',
        severity: 'error',
        line: 5,
        pointer: '/message/content/1',
        message: "Tool call 'toolu_01' has no result.",
        providerError: 'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01',
      },
      { rule: 'empty-text-block', severity: 'info', line: 7, pointer: '/message/content/0', message: 'Text block is empty; not replayed (abandoned branch).' },
      { rule: 'missing-final-newline', severity: 'warning', line: 9, pointer: '', message: 'Last line has no newline:\r\nthe next append lands on it.\rOld Mac line end.' },
    ],
  },
  { path: 'clean.jsonl', format: 'openclaw', findings: [] },
  {
    path: 'repairs/a, b: c.jsonl',
    format: 'pi',
    repair: {
      changed: true,
      counts: { ...emptyCounts(), droppedLines: 1, addedResults: 1 },
      lines: { dropped: [4], moved: [], rewritten: [6] },
      output: 'fixed/a, b: c.jsonl',
    },
    findings: [{ rule: 'blank-user-message', severity: 'warning', line: 2, pointer: '/message/content', message: 'User message is blank.' }],
  },
  {
    path: 'sessions/verify me.jsonl',
    format: 'pi',
    findings: [],
    verdicts: [
      { line: 2, verdict: 'PASS', model: MODEL, latencyMs: 1200, cached: false },
      { line: 4, verdict: 'FAIL', category: 'goal_missed', feedback: 'Answered 50% of the question,\r\nnot the deploy step.', model: MODEL, latencyMs: 2345, cached: false },
      { line: 6, verdict: 'ERROR', feedback: 'the judge did not end with a verdict line (got "maybe: yes, maybe no")', model: MODEL, cached: false },
      { line: 8, verdict: 'SKIPPED', feedback: 'tool-call turn, not a final answer' },
      { line: 10, verdict: 'FAIL', category: 'rule_violation', feedback: 'Used emoji although SOUL.md forbids it.', model: MODEL, latencyMs: 0, cached: true },
    ],
  },
  {
    path: '-',
    format: null,
    findings: [{ rule: 'unknown-format', severity: 'warning', line: 1, pointer: '', message: 'No line looks like a pi / OpenClaw session entry; the file was not checked.' }],
  },
];
