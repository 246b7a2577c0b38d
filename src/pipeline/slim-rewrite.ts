import { emptyPlan } from '../repair/plan.js';
import { rules } from '../rules/index.js';
import type { SlimOptions } from '../slim/options.js';
import { planSlim } from '../slim/planner.js';
import { STRATEGIES, type SlimReport, type StrategyResult } from '../slim/report.js';
import type { Rewrite } from './rewrite.js';

/**
 * `slim` as a rewrite: its planner in repair's place, on the same writer path (lock, concurrent-
 * append check, backup, atomic write, passes to a fixed point). Every pass's plan is noted per
 * file; the report joins them: the size before the first, after the last (measured on the final
 * output, which the last pass planned nothing for), and what each strategy took out in all.
 * Line endings and a byte order mark stay as they are: a session that fits is copied byte for byte.
 */
export function slimRewrite(options: SlimOptions): Rewrite {
  const passes = new Map<string, Array<{ report: SlimReport; final: boolean; exhausted?: true }>>();
  return {
    plan(transcript, display, file) {
      const list = passes.get(display) ?? [];
      // The pass before ran every strategy to its end: its output would be read again for nothing.
      if (list.at(-1)?.exhausted) return emptyPlan();
      const { plan, report, exhausted } = planSlim(transcript, { ...options, provider: options.provider ?? transcript.provider }, file);
      list.push({ report, final: plan.analysis !== undefined, ...(exhausted ? { exhausted } : {}) });
      passes.set(display, list);
      return plan;
    },
    rules,
    fixEndings: false,
    finish(report) {
      const list = passes.get(report.path);
      passes.delete(report.path);
      if (list !== undefined && list.length > 0) report.slim = joined(list);
    },
  };
}

function joined(list: ReadonlyArray<{ report: SlimReport; final: boolean }>): SlimReport {
  const first = list[0]!.report;
  const last = list.at(-1)!;
  const strategies = STRATEGIES.flatMap((strategy): StrategyResult[] => {
    const done = list.flatMap(({ report }) => report.strategies.filter((result) => result.strategy === strategy));
    if (done.length === 0) return [];
    const lines = [...new Set(done.flatMap((result) => result.lines))].sort((a, b) => a - b);
    const sum = (key: 'parts' | 'savedBytes' | 'savedTokens') => done.reduce((total, result) => total + result[key], 0);
    return [{ strategy, parts: sum('parts'), lines, savedBytes: sum('savedBytes'), savedTokens: sum('savedTokens') }];
  });
  const after = last.final ? last.report.before : last.report.after;
  const { left } = last.report;
  return { target: first.target, before: first.before, after, fits: last.report.fits, strategies, ...(left === undefined ? {} : { left }) };
}
