import { semanticsOf } from '../../model/transcript.js';
import type { Rule } from '../rule.js';

export const unknownParent: Rule = {
  meta: {
    id: 'unknown-parent',
    severity: 'error',
    category: 'structure',
    fix: 'unsafe',
    description: 'An entry names a parent id that does not exist.',
    docs: `## What it does
Finds entries whose \`parentId\` names no entry in the file.

## Why is this bad?
pi builds the conversation by walking parent links from the last entry back to the root. An
unknown parent ends the walk: everything older silently disappears from the model's context
("amnesia"). A dropped or unparseable line in the middle of a file is the usual cause. Claude
Code bridges such an entry to the line written before it when it resumes, so it still sends the
history across the gap (and the rules judge it that way); every other reader of the file loses it.

## Fix
repair re-links the entry to the parent of the line that was lost when that line's start can still be read, otherwise to the entry written before it (append-only logs are written in order). Unsafe: the guess can pick a sibling.`,
  },
  check({ analysis, report }) {
    const cut = semanticsOf(analysis.transcript).bridgesUnknownParents ? 'the agent bridges it to the line before, other readers lose the history before it' : 'history before it is cut off';
    for (const index of analysis.tree.unknownParents) {
      const entry = analysis.entries.at(index);
      report({
        entry,
        pointer: '/parentId',
        message: `Entry ${entry.id ?? `on line ${entry.line}`} names parent ${entry.parentId}, which does not exist; ${cut}.`,
      });
    }
  },
};
