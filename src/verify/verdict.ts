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
  const line = stripMarkup(last ?? '');
  const passAt = /(?:^|[^\w])PASS[.!]?$/.test(line) ? line.lastIndexOf('PASS') : -1;
  if (passAt >= 0) {
    if (!/\bFAIL\b/.test(line) && !NEGATIONS.has(lastWord(line.slice(0, passAt)).toLowerCase())) return { verdict: 'PASS' };
    return error(line);
  }
  const fail = /(?:^|[^\w[])FAIL \[([a-z_]+)\]:\s*(\S.*)$/.exec(line);
  if (fail !== null && (FAIL_CATEGORIES as readonly string[]).includes(fail[1]!)) {
    return { verdict: 'FAIL', category: fail[1] as FailCategory, feedback: fail[2]!.trim() };
  }
  return error(line);
}

const NEGATIONS = new Set(['not', 'never', 'no', 'cannot', "can't", 'can’t', "doesn't", 'doesn’t', "don't", 'don’t', "didn't", 'didn’t', "won't", 'won’t', "wouldn't", 'wouldn’t', "isn't", 'isn’t', 'fails', 'fail']);

/**
 * Markdown around the verdict ("**PASS**", "> PASS"). This and lastWord() scan by hand: a regex anchored at the end
 * would retry from every character of a long line.
 */
function stripMarkup(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && /[*_`>#\s]/.test(text[start]!)) start++;
  while (end > start && /[*_`\s]/.test(text[end - 1]!)) end--;
  return text.slice(start, end);
}

function lastWord(text: string): string {
  const isWord = (char: string) => /[\w'\u2019]/.test(char);
  let end = text.length;
  while (end > 0 && !isWord(text[end - 1]!)) end--;
  let start = end;
  while (start > 0 && isWord(text[start - 1]!)) start--;
  return text.slice(start, end);
}

function error(line: string): Pick<Verdict, 'verdict' | 'feedback'> {
  return { verdict: 'ERROR', feedback: `the judge did not end with a verdict line (got "${line.slice(0, 80)}")` };
}
