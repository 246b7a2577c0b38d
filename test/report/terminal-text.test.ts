import { describe, expect, it } from 'vitest';
import type { ExplainResult } from '../../src/explain/result.js';
import type { FileReport } from '../../src/pipeline/finding.js';
import { emptyCounts } from '../../src/repair/plan.js';
import { explainText } from '../../src/report/explain.js';
import { stylishReporter } from '../../src/report/stylish.js';
import { terminalText } from '../../src/report/terminal-text.js';

const PAYLOAD = '\u001b]0;PWNED\u0007\u001b[2J';
/** Whatever a terminal would obey: C0 but newline, DEL, C1, bidi controls. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** The same, but ESC is allowed when it starts one of the SGR colour codes chalk writes. */
const RAW_BUT_COLOUR = /\u001b(?!\[\d+m)|[\u0000-\u0009\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('terminalText', () => {
  it('writes C0, DEL and C1 controls as escapes', () => {
    expect(terminalText(PAYLOAD)).toBe('\\x1b]0;PWNED\\x07\\x1b[2J');
    expect(terminalText('a\nb\r\tc\u0000\u007f\u009b[2J')).toBe('a\\nb\\r\\tc\\x00\\x7f\\x9b[2J');
  });

  it('writes bidi embeddings, overrides, isolates and marks as escapes', () => {
    const bidi = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
    expect(terminalText(`x${bidi}y`)).toBe('x\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061cy');
  });

  it('leaves printable text alone, other scripts and backslashes included', () => {
    for (const text of ['logs/session one.jsonl', 'C:\\Users\\ada\\s.jsonl', 'café ✔ 日本語 עברית', '`tool_use` ids: toolu_01', '']) {
      expect(terminalText(text)).toBe(text);
    }
  });
});

const crafted: FileReport[] = [
  {
    path: `logs/evil${PAYLOAD}\u202egnp.jsonl`,
    format: `pi${PAYLOAD}`,
    findings: [
      {
        rule: `missing-tool-result${PAYLOAD}`,
        severity: 'error',
        line: 3,
        pointer: `/message/content/0${PAYLOAD}`,
        message: `Tool call call_${PAYLOAD} has no result; parent u1\u202e.`,
        providerError: `messages.0: ids: call_${PAYLOAD}`,
      },
    ],
    repair: {
      changed: true,
      counts: { ...emptyCounts(), droppedLines: 1 },
      lines: { dropped: [4], moved: [], rewritten: [] },
      output: `out${PAYLOAD}.jsonl`,
      backupPath: `b${PAYLOAD}.bak`,
    },
  },
  {
    path: `judged${PAYLOAD}.jsonl`,
    format: 'pi',
    findings: [],
    verdicts: [
      { line: 4, verdict: 'FAIL', category: 'incomplete', feedback: `it stopped${PAYLOAD}`, model: `openai/x${PAYLOAD}` },
      { line: 6, verdict: 'SKIPPED', feedback: `no trigger${PAYLOAD}` },
    ],
  },
];

describe('text reporters print no control character from their input', () => {
  it.each([false, true])('stylish (colour %s)', (color) => {
    const text = stylishReporter(crafted, { color, dryRun: true });
    expect(text).not.toMatch(color ? RAW_BUT_COLOUR : RAW_CONTROL);
    expect(text).toContain('logs/evil\\x1b]0;PWNED\\x07\\x1b[2J\\u202egnp.jsonl');
    expect(text).toContain('call_\\x1b]0;PWNED\\x07\\x1b[2J has no result; parent u1\\u202e.');
    expect(text).toContain('→ out\\x1b]0;PWNED\\x07\\x1b[2J.jsonl (backup: b\\x1b]0;PWNED\\x07\\x1b[2J.bak)');
    expect(text).toContain('incomplete: it stopped\\x1b]0;PWNED\\x07\\x1b[2J  (openai/x\\x1b]0;PWNED\\x07\\x1b[2J)');
    expect(text).toContain('no trigger\\x1b]0;PWNED\\x07\\x1b[2J');
    if (color) expect(text).toContain('\u001b[31m');
  });

  it.each([false, true])('explain (colour %s)', (color) => {
    const result: ExplainResult = {
      error: { provider: 'Anthropic', ref: 'A1', meaning: 'a tool call has no result', text: PAYLOAD, messageIndex: 2, ids: [`toolu_${PAYLOAD}`], rules: ['missing-tool-result'] },
      search: { searched: [`dir${PAYLOAD}`], files: 1, method: 'ids', considered: 1, scanned: 1, read: 1 },
      session: {
        path: `s${PAYLOAD}.jsonl`,
        format: 'pi',
        rule: 'missing-tool-result',
        severity: 'error',
        line: 3,
        pointer: '/message/content/0',
        message: `call toolu_${PAYLOAD} has no result`,
        fix: `transcript-doctor repair --in-place 's${PAYLOAD}.jsonl'`,
        docs: { command: 'transcript-doctor rules missing-tool-result', file: 'docs/rules/missing-tool-result.md' },
      },
      others: [{ path: `other\u202e.jsonl`, line: 2, rule: 'missing-tool-result' }],
    };
    const text = explainText(result, color);
    expect(text).not.toMatch(color ? RAW_BUT_COLOUR : RAW_CONTROL);
    expect(text).toContain('toolu_\\x1b]0;PWNED\\x07\\x1b[2J');
    expect(text).toContain("repair --in-place 's\\x1b]0;PWNED\\x07\\x1b[2J.jsonl'");
    expect(text).toContain('other\\u202e.jsonl:2');
  });
});
