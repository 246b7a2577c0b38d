import type { Analysis, PathView } from '../model/analysis.js';
import type { Entry } from '../model/entry.js';
import type { Grade } from '../providers/contract.js';
import type { ProviderId } from '../providers/provider-id.js';

export type Severity = 'error' | 'warning' | 'info';

export type Category = 'syntax' | 'structure' | 'pairing' | 'content' | 'shape' | 'format' | 'contract' | 'size';

export interface RuleMeta {
  /** Stable kebab-case id; never renamed once released. */
  id: string;
  severity: Severity;
  category: Category;
  /** One line, used in listings. */
  description: string;
  /**
   * What repair or canonicalize does, in Ruff's terms: `safe` keeps the meaning of the session,
   * `unsafe` may change what the model sees (dropping a call, guessing a lost parent), `none`
   * leaves the finding for a person.
   */
  fix: 'safe' | 'unsafe' | 'none';
  /** Markdown in Ruff's shape: What it does / Why is this bad? / Example. */
  docs: string;
  /**
   * The providers whose contract the rule checks, with the evidence grade (src/providers/).
   * Absent for rules every provider shares. A contract rule runs only for these; a shared rule
   * listed here quotes the chosen provider's own wording when `--provider` names one.
   */
  providers?: Partial<Record<ProviderId, Grade>>;
}

export interface Problem {
  /** The entry the problem is about; lets the runner lower severity off the replayed path. */
  entry?: Entry;
  /** Line, when there is no entry (byte-level problems). */
  line?: number;
  /** JSON Pointer inside the line; defaults to the whole line. */
  pointer?: string;
  message: string;
  /** The error a strict provider returns for this problem, as it would quote it. */
  providerError?: string;
  /** Found while judging this path; findings from abandoned branches are kept only for their own entries. */
  path?: PathView;
  /** A lower severity than the rule's, when the rule knows the problem is milder here. */
  severity?: Severity;
  /** `severity` is higher than the rule's and still holds: the named provider rejects this for certain (`--provider`). */
  raise?: boolean;
}

export interface RuleContext {
  readonly analysis: Analysis;
  report(problem: Problem): void;
}

/**
 * A rule only reports; fixes are neutral edits planned elsewhere, never in the check. A rule that
 * looks at entries one by one says so with `checkEntry`: the runner then walks the file once for
 * all such rules, with one view per entry, instead of once per rule.
 */
export interface Rule {
  meta: RuleMeta;
  check?(context: RuleContext): void;
  checkEntry?(entry: Entry, context: RuleContext): void;
  /**
   * `unusual`: checkEntry reports only on entries out of the ordinary (see unusualEntries), so the
   * runner hands it just those. Most lines of a large file are plain, and a view of each costs.
   */
  entries?: 'all' | 'unusual';
}
