import type { Severity } from '../rules/rule.js';

export interface Finding {
  rule: string;
  severity: Severity;
  line: number;
  /** JSON Pointer inside the line; '' is the whole line. */
  pointer: string;
  message: string;
  providerError?: string;
}

export interface FileReport {
  /** As given or found; '-' for standard input. */
  path: string;
  /** Detected format, or null when none matched. */
  format: string | null;
  findings: Finding[];
}

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
