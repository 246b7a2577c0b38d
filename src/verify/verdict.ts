/** What the judge said about one assistant response. */
export type VerdictKind = 'PASS' | 'FAIL' | 'ERROR' | 'SKIPPED';

export const FAIL_CATEGORIES = ['goal_missed', 'incomplete', 'rule_violation', 'tone_mismatch', 'refusal'] as const;
export type FailCategory = (typeof FAIL_CATEGORIES)[number];

export interface Verdict {
  /** Line of the judged (or skipped) assistant message. */
  line: number;
  verdict: VerdictKind;
  category?: FailCategory;
  /** The judge's feedback for a FAIL; the error for an ERROR; why for a SKIPPED. */
  feedback?: string;
  model?: string;
  latencyMs?: number;
  cached?: boolean;
}

/**
 * The verdict ends the reply's last non-empty line: `PASS`, or `FAIL [category]: feedback`, alone or after other words
 * ("Reasoning done. PASS", "Verdict: **PASS**", "Verdict: FAIL [incomplete]: …"). Anything else is an ERROR: a judge
 * that does not follow the format is not trusted, and neither is a line that negates its PASS or also says FAIL.
 */
export function parseVerdict(reply: string): Pick<Verdict, 'verdict' | 'category' | 'feedback'> {
  const last = reply.trim().split('\n').reverse().find((line) => line.trim() !== '');
  const line = (last ?? '').trim().replace(/^[*_`>#\s]+|[*_`\s]+$/g, '');
  const passAt = /(?:^|[^\w])PASS[.!]?$/.test(line) ? line.lastIndexOf('PASS') : -1;
  if (passAt >= 0) {
    const before = /([\w'’]+)[^\w'’]*$/.exec(line.slice(0, passAt))?.[1] ?? '';
    if (!/\bFAIL\b/.test(line) && !NEGATIONS.has(before.toLowerCase())) return { verdict: 'PASS' };
    return error(line);
  }
  const fail = /(?:^|[^\w[])FAIL \[([a-z_]+)\]:\s*(\S.*)$/.exec(line);
  if (fail !== null && (FAIL_CATEGORIES as readonly string[]).includes(fail[1]!)) {
    return { verdict: 'FAIL', category: fail[1] as FailCategory, feedback: fail[2]!.trim() };
  }
  return error(line);
}

const NEGATIONS = new Set(['not', 'never', 'no', 'cannot', "can't", 'can’t', "doesn't", 'doesn’t', "don't", 'don’t', "didn't", 'didn’t', "won't", 'won’t', "wouldn't", 'wouldn’t', "isn't", 'isn’t', 'fails', 'fail']);

function error(line: string): Pick<Verdict, 'verdict' | 'feedback'> {
  return { verdict: 'ERROR', feedback: `the judge did not end with a verdict line (got "${line.slice(0, 80)}")` };
}
