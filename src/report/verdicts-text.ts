import type { Verdict } from '../verify/verdict.js';

/** "5 skipped: 3 tool-call turn, not a final answer; 2 no trigger keyword (…)" */
export function describeSkipped(verdicts: readonly Verdict[]): string | undefined {
  const reasons = new Map<string, number>();
  for (const verdict of verdicts) if (verdict.verdict === 'SKIPPED') reasons.set(verdict.feedback ?? '', (reasons.get(verdict.feedback ?? '') ?? 0) + 1);
  if (reasons.size === 0) return undefined;
  const total = [...reasons.values()].reduce((a, b) => a + b, 0);
  return `${total} skipped: ${[...reasons].map(([reason, n]) => `${n} ${reason}`).join('; ')}`;
}

/** What follows the verdict word on its line. */
export function describeVerdict(verdict: Verdict): string {
  const said = verdict.verdict === 'FAIL' ? `${verdict.category}: ${verdict.feedback}` : verdict.feedback ?? '';
  const how = verdict.cached ? 'cached' : verdict.latencyMs !== undefined ? `${(verdict.latencyMs / 1000).toFixed(1)} s` : undefined;
  const where = [verdict.model, how].filter(Boolean).join(', ');
  return where === '' ? said : `${said}  (${where})`;
}
