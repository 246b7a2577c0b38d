import type { Rule } from '../rule.js';
import { functionResponseNameEmpty } from '../provider-errors.js';
import { enforcedBy } from '../../providers/index.js';
import { contractTerm, namedTerm, spokenError, worded } from '../contract/terms.js';
import { IN_REPLAYED_HISTORY, keptProblems } from '../kept-problems.js';

export const missingToolResultName: Rule = {
  meta: {
    id: 'missing-tool-result-name',
    severity: 'warning',
    category: 'pairing',
    fix: 'safe',
    description: 'A tool result has no tool name.',
    providers: enforcedBy('missing-tool-result-name'),
    docs: `## What it does
Finds tool results whose tool name is missing, blank, or padded with whitespace.

## Why is this bad?
Gemini requires each function response to name the function it answers and rejects an empty
name; OpenClaw's strict pairing check treats such a transcript as needing repair on every
request. The name can be restored from the paired call. With \`--provider gemini\` a missing or
blank name is an error, as it is in a Gemini CLI session (its client sends a recorded
result's \`functionResponse\` as it stands, to Gemini). A name that differs from its call's is
\`tool-result-name-mismatch\`.

## Fix
repair fills the name from the paired call, or trims it; never writes "unknown".`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    for (const problem of keptProblems(entry, 'result-name-missing')) {
      // A history the agent sends its provider as it stands: that provider refuses it for certain.
      const terms = namedTerm(analysis, 'missing-tool-result-name') ?? contractTerm(analysis, 'missing-tool-result-name');
      if (terms?.term === undefined) continue;
      const words = worded(terms, { message: problem.turn, block: problem.part });
      const message = `Tool result for ${problem.callId} has no tool name, ${IN_REPLAYED_HISTORY}.`;
      report({ entry, pointer: problem.pointer, message, ...words, severity: words.severity ?? 'error', raise: true });
    }
    entry.toolResults?.forEach((result, k) => {
      const name = result.name;
      if (result.namePointer === undefined || (name !== undefined && name.trim() !== '' && name.trim() === name)) return;
      const item = analysis.replay.itemOf(entry.index);
      const blank = name === undefined || name.trim() === '';
      const named = blank ? namedTerm(analysis, 'missing-tool-result-name') : undefined;
      const problem = name === undefined ? 'has no tool name' : blank ? 'has a blank tool name' : `has a padded tool name "${name}"`;
      const message = `Tool result for ${result.callId ?? '(no call id)'} ${problem}.`;
      if (named?.term !== undefined) {
        const words = worded(named, { message: item?.messageIndex ?? 0, block: (item?.blockIndex ?? 0) + k });
        report({ entry, pointer: result.namePointer, message, ...words, severity: words.severity ?? 'error', raise: true });
        return;
      }
      report({
        entry,
        pointer: result.namePointer,
        message,
        providerError:
          blank && item !== undefined
            ? (spokenError(analysis, 'missing-tool-result-name', { message: item.messageIndex, block: item.blockIndex + k }) ?? functionResponseNameEmpty(item.messageIndex, item.blockIndex + k))
            : undefined,
      });
    });
  },
};
