import { UserError } from '../errors.js';
import type { Analysis } from '../model/analysis.js';
import type { Transcript } from '../model/transcript.js';
import { emptyPlan } from '../repair/plan.js';
import { rules } from '../rules/index.js';
import { withParsedLines } from '../slim/compaction/lines.js';
import type { GivenSummary, SlimOptions } from '../slim/options.js';
import { planSlim, type SlimPlan } from '../slim/planner.js';
import { STRATEGIES, type SlimReport, type StrategyResult } from '../slim/report.js';
import type { Rewrite } from './rewrite.js';

/** Writes the summary of the replayed entries before `keepFrom` (slim --summarize: a model's); a rejection stops the file. */
export type Summarizer = (analysis: Analysis, keepFrom: number, read: (entry: number) => unknown) => Promise<string>;

/**
 * `slim` as a rewrite: its planner in repair's place, on the same writer path (lock, concurrent-
 * append check, backup, atomic write, passes to a fixed point). Every pass's plan is noted per
 * file; the report joins them: the size before the first, after the last (measured on the final
 * output, which the last pass planned nothing for), and what each strategy took out in all.
 * Line endings and a byte order mark stay as they are: a session that fits is copied byte for byte.
 */
export function slimRewrite(options: SlimOptions, summarize?: Summarizer): Rewrite {
  const passes = new Map<string, Array<{ report: SlimReport; final: boolean; exhausted?: true }>>();
  // With a summarizer, a file's first plan is made in `prepare` and, when it compacts, made again with the summary written for its cut.
  const prepared = new Map<string, { transcript: Transcript; slim?: SlimPlan; summary?: GivenSummary }>();
  const optionsFor = (transcript: Transcript): SlimOptions => ({ ...options, provider: options.provider ?? transcript.provider });
  return {
    ...(summarize === undefined
      ? {}
      : {
          async prepare(transcript: Transcript, display: string, file: string) {
            const first = planSlim(transcript, optionsFor(transcript), file);
            if (first.compaction === undefined) {
              prepared.set(display, { transcript, slim: first });
              return;
            }
            const { analysis, keepFrom } = first.compaction;
            let text: string;
            try {
              text = await withParsedLines(file, analysis.entries, (read) => summarize(analysis, keepFrom, read));
            } catch (error) {
              throw new UserError(`${display}: --summarize: ${error instanceof Error ? error.message : String(error)}; nothing was written`);
            }
            prepared.set(display, { transcript, summary: { keepFrom, text } });
          },
        }),
    plan(transcript, display, file) {
      const list = passes.get(display) ?? [];
      // The pass before ran every strategy to its end: its output would be read again for nothing.
      if (list.at(-1)?.exhausted) return emptyPlan();
      // Only the first pass's compaction has the summary written for it; a later one (rare) writes its own.
      const ready = list.length === 0 ? prepared.get(display) : undefined;
      prepared.delete(display);
      const given = ready?.transcript === transcript ? ready : undefined;
      const { plan, report, exhausted } = given?.slim ?? planSlim(transcript, given?.summary === undefined ? optionsFor(transcript) : { ...optionsFor(transcript), summary: given.summary }, file);
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
