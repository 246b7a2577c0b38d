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
 * The verdict is the reply's last non-empty line: `PASS`, or `FAIL [category]: feedback`.
 * Anything else is an ERROR: a judge that does not follow the format is not trusted.
 */
export function parseVerdict(reply: string): Pick<Verdict, 'verdict' | 'category' | 'feedback'> {
  const last = reply.trim().split('\n').reverse().find((line) => line.trim() !== '');
  const line = (last ?? '').trim().replace(/^[*_`>#\s]+|[*_`\s]+$/g, '');
  if (/^PASS\.?$/.test(line)) return { verdict: 'PASS' };
  const fail = /^FAIL \[([a-z_]+)\]:\s*(\S.*)$/.exec(line);
  if (fail !== null && (FAIL_CATEGORIES as readonly string[]).includes(fail[1]!)) {
    return { verdict: 'FAIL', category: fail[1] as FailCategory, feedback: fail[2]!.trim() };
  }
  return { verdict: 'ERROR', feedback: `the judge did not end with a verdict line (got "${line.slice(0, 80)}")` };
}
