import type { Rule } from '../rule.js';

export const parentCycle: Rule = {
  meta: {
    id: 'parent-cycle',
    severity: 'error',
    category: 'structure',
    fix: 'unsafe',
    description: 'Parent links form a cycle.',
    docs: `## What it does
Finds entries whose parent links lead back to themselves, including an entry that is its own
parent.

## Why is this bad?
The conversation is built by following parent links to the root. A cycle has no root: pi's walk
never ends (the agent hangs on load) or, in versions with a guard, the history is cut at an
arbitrary point.

## Fix
repair attaches the earliest entry of the cycle to the entry written before it. Unsafe: the guess can pick a sibling.`,
  },
  check({ analysis, report }) {
    for (const cycle of analysis.tree.cycles) {
      const members = cycle.map((index) => analysis.entries.at(index));
      const first = members.reduce((a, b) => (b.line < a.line ? b : a));
      const ids = members.map((entry) => entry.id).join(' → ');
      report({
        entry: first,
        pointer: '/parentId',
        message: members.length === 1 ? `Entry ${first.id} is its own parent.` : `Parent links form a cycle: ${ids} → ${members[0]!.id}.`,
      });
    }
  },
};
