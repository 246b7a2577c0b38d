import type { Analysis } from '../model/analysis.js';
import { measureRequest } from '../model/size/measure.js';
import type { SizeKind, SizeShare } from '../model/size/request-size.js';
import { judgeSize } from '../providers/size/judge.js';
import { findRule } from '../rules/index.js';

/** How many tools and entries the summary lists: enough to see what to slim, short enough to read. */
export const SUMMARY_TOOLS = 10;
export const SUMMARY_ENTRIES = 10;

/**
 * What makes a session big, as the reports show it (JSON `size`, `--statistics`, the HTML view):
 * the replayed request's tokens against the window it meets, its bytes, its media, and its
 * breakdown by kind, by tool and by the largest entries (with their lines). Plain data: it crosses
 * worker threads and is written as it is.
 */
export interface SizeSummary {
  model: string | null;
  /** Who the request is judged against: the gateway in front (copilot, dashscope), else the provider. */
  judgedBy: string | null;
  window: { tokens: number; family: string; source: string; guessed: boolean } | null;
  tokens: { estimate: number; high: number; estimator: string; anchor: { line: number; tokens: number } | null };
  bytes: number;
  media: { images: number; pdfPages: number; count: number };
  byKind: Record<SizeKind, SizeShare>;
  byTool: Array<SizeShare & { tool: string }>;
  largest: Array<{ line: number; kind: SizeKind; bytes: number; tokens: number; tool: string | null }>;
}

/** Whether a size rule found something: only then does a report carry the summary, so other reports stay as they were. */
export function hasSizeFinding(findings: readonly { rule: string }[]): boolean {
  return findings.some((finding) => findRule(finding.rule)?.meta.category === 'size');
}

/** The summary of an analysed session (measureRequest keeps its figures, so a scan whose rules measured pays nothing more). */
export function sizeSummary(analysis: Analysis): SizeSummary {
  const request = measureRequest(analysis);
  const judge = judgeSize(analysis, request);
  const store = analysis.entries;
  const images = request.media.filter((media) => media.kind === 'image').length;
  const anchor = request.tokens.anchor;
  const window = judge.window;
  return {
    model: request.model ?? null,
    judgedBy: judge.gateway ?? judge.provider ?? null,
    window: window === undefined ? null : { tokens: window.tokens, family: window.family, source: window.source, guessed: window.guessed === true },
    tokens: {
      estimate: request.tokens.tokens,
      high: request.tokens.high,
      estimator: request.tokens.estimator,
      anchor: anchor === undefined ? null : { line: store.at(anchor.entry).line, tokens: anchor.tokens },
    },
    bytes: request.bytes,
    media: { images, pdfPages: request.mediaCount - images, count: request.mediaCount },
    byKind: request.breakdown.byKind,
    byTool: request.breakdown.byTool.slice(0, SUMMARY_TOOLS),
    largest: request.breakdown.largest.slice(0, SUMMARY_ENTRIES).map((entry) => ({ line: entry.line, kind: entry.kind, bytes: entry.bytes, tokens: entry.tokens, tool: entry.tool ?? null })),
  };
}
