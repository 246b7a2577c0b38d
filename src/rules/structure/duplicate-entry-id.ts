import type { Rule } from '../rule.js';

export const duplicateEntryId: Rule = {
  meta: {
    id: 'duplicate-entry-id',
    severity: 'error',
    category: 'structure',
    fix: 'none',
    description: 'Two entries share one id.',
    docs: `## What it does
Finds entries whose \`id\` was already used by an earlier entry.

## Why is this bad?
pi indexes entries by id and the later one wins, so every child of the earlier entry is silently
re-attached to the later one: history from another branch, or from another session pasted into
this file, appears in the conversation.

## Fix
not fixed: which entry the children meant cannot be known; the finding stays.`,
  },
  check({ analysis, report }) {
    const { entries, tree } = analysis;
    for (const { entry, first } of tree.duplicateIds) {
      const later = entries[entry]!;
      report({
        entry: later,
        pointer: '/id',
        message: `Entry id ${later.id} is already used on line ${entries[first]!.line}; pi keeps only this later entry.`,
      });
    }
  },
};
