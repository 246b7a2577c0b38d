import { blocksPointer } from '../../model/transcript.js';
import type { Rule } from '../rule.js';
import { ALL_MESSAGES_EMPTY } from '../provider-errors.js';
import { enforcedBy } from '../../providers/index.js';
import { lineRefuses } from '../../providers/choose.js';
import { namedTerm, sentIndex, worded } from '../contract/terms.js';

export const blankUserMessage: Rule = {
  meta: {
    id: 'blank-user-message',
    severity: 'warning',
    category: 'content',
    fix: 'safe',
    description: 'A user message has no text (empty, or only whitespace).',
    providers: enforcedBy('blank-user-message'),
    docs: `## What it does
Finds user messages whose content is an empty string, an empty list, or only blank text blocks.

## Why is this bad?
Providers reject empty user messages. pi drops them when it builds the request, which merges the
turns around them and, in a short session, can leave no message at all
("messages: at least one message is required", OpenClaw #76829). Current OpenClaw rewrites them
on disk to \`(continue)\`.

With \`--provider\` naming Anthropic, Vertex, Bedrock or Gemini, it is an error in that
provider's words; for the others it stays a warning.

## Fix
repair writes \`(continue)\`, as current OpenClaw does.`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    if (entry.role === 'user' && entry.blankText) {
      // A request line whose provider takes it has nothing to refuse; a session's warning is about its agent.
      if (lineRefuses(analysis, 'blank-user-message') === false) return;
      const named = namedTerm(analysis, 'blank-user-message');
      if (named?.term !== undefined) {
        const words = worded(named, { message: sentIndex(analysis, entry.index), block: 0 });
        report({ entry, pointer: `${entry.pointer}${blocksPointer(analysis.transcript)}`, message: `User message is blank; ${named.contract.name} refuses it.`, ...words, severity: words.severity ?? 'error', raise: true });
        return;
      }
      report({
        entry,
        pointer: `${entry.pointer}${blocksPointer(analysis.transcript)}`,
        message: 'User message is blank.',
        providerError: ALL_MESSAGES_EMPTY,
      });
    }
  },
};
