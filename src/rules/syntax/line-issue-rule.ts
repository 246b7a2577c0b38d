import type { LineIssueKind } from '../../model/transcript.js';
import type { Rule, RuleMeta } from '../rule.js';

/** Byte-level rules all report the reader's line issues of one kind; only their words differ. */
export function lineIssueRule(meta: RuleMeta, kinds: readonly LineIssueKind[], describe: (detail: string) => string): Rule {
  return {
    meta,
    check({ analysis, report }) {
      for (const issue of analysis.transcript.lineIssues) {
        if (kinds.includes(issue.kind)) report({ line: issue.line, message: describe(issue.detail) });
      }
    },
  };
}
