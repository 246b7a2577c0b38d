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
An agent indexes entries by id and keeps only one of them, so every child of the other is
silently re-attached: history from another branch, or from another session pasted into this
file, appears in the conversation or drops out of it. pi keeps the later entry. Claude Code is
meant to keep the earlier one, but what it resumes is not that simple: given a last line that
reused the uuid of an earlier tool call, Claude Code 2.1.328 resumed with the prompt followed
straight by that last line, and the call and its result were gone from the request.

## Fix
repair drops the earlier copy when the two lines are the same entry written twice (equal except
for the time they were written) and nothing written between them hangs on that id: the later
copy then stands where every reader already looked for it.

Where the agent keeps the earlier entry (Claude Code), a later, *different* entry that reuses an
id gets an id of its own when no line after it names that id as parent: every child of the id
was written before the copy existed and so meant the earlier entry, no link changes, and the
agent resumes the conversation as it was written. Two different entries that share an id with
children after both stay a finding: which of them each child meant cannot be known from the
file, pi and Claude Code resolve it in opposite ways, and a guess would silently move history
between branches.

Left too: a last line that copies an earlier uuid while lines written before it hang on that
uuid. Claude Code 2.1.328 resumes past such a copy, from the newest line that hangs on its
uuid (the copy's content standing in for the earlier line); under an id of its own the copy
would be the line it resumes from, and the conversation after the earlier line would be lost.
The finding stays (a warning: the copy is on no branch the agent replays).`,
  },
  check({ analysis, report }) {
    const { entries, tree } = analysis;
    const kept = semanticsOf(analysis.transcript).duplicateIds === 'last' ? 'keeps only this later entry' : 'resolves it to one of the two lines, so the conversation it resumes loses the other and what hangs on it';
    for (const { entry, first } of tree.duplicateIds) {
      const later = entries.at(entry);
      report({
        entry: later,
        pointer: '/id',
        message: `Entry id ${later.id} is already used on line ${entries.at(first).line}; the agent ${kept}.`,
      });
    }
  },
};
