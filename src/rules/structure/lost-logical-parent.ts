import type { Rule } from '../rule.js';

export const lostLogicalParent: Rule = {
  meta: {
    id: 'lost-logical-parent',
    severity: 'warning',
    category: 'structure',
    fix: 'none',
    description: 'A compaction boundary continues a conversation that is not in the file.',
    docs: `## What it does
Finds compaction boundaries (roots that name the last entry before the compaction in
\`logicalParentUuid\`) whose named entry does not exist in the file.

## Why is this bad?
Replay starts at the boundary, so requests still work, but the history the summary replaced is
gone: it was never written, or lives in a file that was deleted. Tools that show or search the
whole session silently lose it.

## Fix
Not fixed: nothing in the file says where the history went.`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    if (entry.logicalParentId !== undefined && !analysis.tree.byId.has(entry.logicalParentId)) {
      report({ entry, message: `Compaction boundary ${entry.id} continues ${entry.logicalParentId}, which is not in this file.` });
    }
  },
};
