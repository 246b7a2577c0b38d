import type { Rule } from '../rule.js';
import { semanticsOf } from '../../model/transcript.js';

export const duplicateEntryId: Rule = {
  meta: {
    id: 'duplicate-entry-id',
    severity: 'error',
    category: 'structure',
    fix: 'safe',
    description: 'Two entries share one id.',
    docs: `## What it does
Finds entries whose \`id\` was already used by an earlier entry.

## Why is this bad?
An agent indexes entries by id and keeps only one of them (pi the later, Claude Code the
earlier), so every child of the other is silently re-attached: history from another branch, or
from another session pasted into this file, appears in the conversation. Claude Code's later
copy is not in its conversation at all: a session whose last line reuses an earlier uuid resumes
from the last line it does keep, so the rules judge that path (an unanswered call on the line
before such a copy is a finding, and repair answers or drops it there).

## Fix
repair drops the earlier copy when the two lines are the same entry written twice (equal except
for the time they were written) and nothing written between them hangs on that id: the later
copy then stands where every reader already looked for it. Two *different* entries that share an
id stay a finding: which of them each child meant cannot be known from the file, pi and Claude
Code resolve it in opposite ways, and a guess would silently move history between branches.`,
  },
  check({ analysis, report }) {
    const { entries, tree } = analysis;
    const kept = semanticsOf(analysis.transcript).duplicateIds === 'last' ? 'only this later entry' : 'only the earlier one';
    for (const { entry, first } of tree.duplicateIds) {
      const later = entries.at(entry);
      report({
        entry: later,
        pointer: '/id',
        message: `Entry id ${later.id} is already used on line ${entries.at(first).line}; the agent keeps ${kept}.`,
      });
    }
  },
};
