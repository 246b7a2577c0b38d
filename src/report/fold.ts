import type { Finding } from '../pipeline/finding.js';

/** How many findings of one rule a file shows before the rest are counted on one line. */
export const SHOWN_PER_RULE = 3;

export interface Folded {
  /** The findings to print, in their order. */
  shown: Finding[];
  /** Per rule, in order of first appearance: how many were left out. */
  more: Array<{ rule: string; count: number }>;
}

/**
 * The first few findings of each rule in a file, and a count of the rest: a garbage file gives a
 * hundred thousand identical findings, which say no more than three do. A single extra finding is
 * shown rather than folded, since its fold line would take the same room.
 */
export function foldRepeats(findings: readonly Finding[], perRule = SHOWN_PER_RULE): Folded {
  const seen = new Map<string, number>();
  for (const finding of findings) seen.set(finding.rule, (seen.get(finding.rule) ?? 0) + 1);
  const limit = (rule: string) => (seen.get(rule)! > perRule + 1 ? perRule : Infinity);
  const taken = new Map<string, number>();
  const shown: Finding[] = [];
  for (const finding of findings) {
    const n = (taken.get(finding.rule) ?? 0) + 1;
    taken.set(finding.rule, n);
    if (n <= limit(finding.rule)) shown.push(finding);
  }
  const more: Folded['more'] = [];
  for (const [rule, count] of seen) if (limit(rule) === perRule) more.push({ rule, count: count - perRule });
  return { shown, more };
}
