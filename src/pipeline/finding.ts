import type { Healing } from '../formats/format.js';
import type { RepairCounts } from '../repair/plan.js';
import type { Severity } from '../rules/rule.js';
import type { Verdict } from '../verify/verdict.js';
import type { Timeline } from './timeline.js';
import type { SlimReport } from '../slim/report.js';

export interface Finding {
  rule: string;
  severity: Severity;
  line: number;
  /** JSON Pointer inside the line; '' is the whole line. */
  pointer: string;
  message: string;
  providerError?: string;
  /** The file's own client mends this in memory when it resumes the file; other readers still meet it. */
  healedBy?: Healing;
}

export interface FileReport {
  /** As given or found; '-' for standard input. */
  path: string;
  /** Detected format, or null when none matched. */
  format: string | null;
  /** For a repair: the findings left in the output, with lines of the repaired file. */
  findings: Finding[];
  /** Present when the report is about a repair. */
  repair?: RepairSummary;
  /** Present when the report is about `slim`: the request's size before and after, and what each strategy took out. */
  slim?: SlimReport;
  /** Present when the report is about `verify`: one verdict per assistant answer on the replayed path. */
  verdicts?: Verdict[];
  /** Present when a reporter asked for it (html) and the file has findings: the conversation around them. */
  timeline?: Timeline;
}

export interface RepairSummary {
  changed: boolean;
  counts: RepairCounts;
  /** Source lines the repair drops, moves or rewrites. */
  lines: { dropped: number[]; moved: number[]; rewritten: number[] };
  /** Where the repaired transcript went ('-' for standard output); absent for a dry run. */
  output?: string;
  backupPath?: string;
  /** Older backups of the file removed to keep the newest N (`--keep-backups`). */
  prunedBackups?: string[];
  /** Why nothing was or could be done, when the format says so (canonicalize on Codex). */
  note?: string;
}

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
