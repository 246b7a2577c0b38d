import type { Analysis } from '../../model/analysis.js';
import { flagMask, KIND_CODE, KIND_MASK, USER } from '../../model/entry-bits.js';
import { isNode, PathWalker } from '../../model/tree.js';
import { semanticsOf } from '../../model/transcript.js';
import type { Rule } from '../rule.js';

const IN_CONTEXT = flagMask('inContext');
const MESSAGE = KIND_CODE['message'];

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
Qwen Code stops there like pi, and only logs "unrecoverable history gap(s)" (QwenLM/qwen-code#6501).
When the gap is where the agent's walk back from the last entry stops, the finding counts the
messages (and user prompts) written before it that the agent will not send: what re-linking saves.

## Fix
repair re-links the entry to the parent of the line that was lost when that line's start can still be read, otherwise to the entry written before it (append-only logs are written in order). Unsafe: the guess can pick a sibling.`,
  },
  check({ analysis, report }) {
    const cut = semanticsOf(analysis.transcript).bridgesUnknownParents ? 'the agent bridges it to the line before, other readers lose the history before it' : 'history before it is cut off';
    const bridged = semanticsOf(analysis.transcript).bridgesUnknownParents === true;
    for (const index of analysis.tree.unknownParents) {
      const entry = analysis.entries.at(index);
      const lost = bridged || analysis.tree.replayPath[0] !== index ? '' : droppedHistory(analysis, index);
      report({
        entry,
        pointer: '/parentId',
        message: `Entry ${entry.id ?? `on line ${entry.line}`} names parent ${entry.parentId}, which does not exist; ${cut}${lost}.`,
      });
    }
  },
};

/**
 * What a replay that stops at the gap leaves out: the messages on the chain that ends at the
 * entry written just before it (where repair re-links it), counted as the model would get them.
 */
function droppedHistory(analysis: Analysis, index: number): string {
  const { entries, tree } = analysis;
  let previous = index - 1;
  while (previous >= 0 && !isNode(entries, previous)) previous -= 1;
  if (previous < 0) return '';
  let messages = 0;
  let prompts = 0;
  for (const at of new PathWalker(tree.parent).path(previous)) {
    const info = entries.info[at]!;
    if ((info & KIND_MASK) !== MESSAGE || (info & IN_CONTEXT) === 0) continue;
    messages += 1;
    if (entries.roleCode(at) === USER) prompts += 1;
  }
  if (messages === 0) return '';
  return ` (the agent resumes without the ${messages} earlier message${messages === 1 ? '' : 's'}, ${prompts} of them ${prompts === 1 ? 'a user prompt' : 'user prompts'}, written before line ${entries.line(index)})`;
}
