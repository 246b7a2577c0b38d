import { blocksPointer, semanticsOf } from '../../model/transcript.js';
import type { Rule } from '../rule.js';
import { ALL_MESSAGES_EMPTY, TEXT_BLOCK_EMPTY, TEXT_BLOCK_WHITESPACE } from '../provider-errors.js';
import { enforcedBy } from '../../providers/index.js';
import { lineRefuses } from '../../providers/choose.js';
import { namedTerm, sentIndex, spokenError, worded } from '../contract/terms.js';

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

In a transcript of an agent that talks only to a provider that refuses blank text (Claude Code:
Anthropic) it is an error, in Anthropic's words for a blank text block: "text content blocks must
contain non-whitespace text" (or "must be non-empty" for empty text). With \`--provider\` naming
Anthropic, Vertex, Bedrock or Gemini, it is an error in that provider's words; for the others it
stays a warning.

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
      const pointer = `${entry.pointer}${blocksPointer(analysis.transcript)}`;
      if (semanticsOf(analysis.transcript).blankTextRejected) {
        // Its only text is a blank text block, which that provider refuses on its own.
        const whitespace = entry.whitespaceTextBlocks !== undefined;
        report({ entry, pointer, message: `User message is ${whitespace ? 'only whitespace' : 'empty'}; its provider refuses a blank text block.`, providerError: whitespace ? TEXT_BLOCK_WHITESPACE : TEXT_BLOCK_EMPTY, severity: 'error', raise: true });
        return;
      }
      const spoken = spokenError(analysis, 'blank-user-message', { message: sentIndex(analysis, entry.index), block: 0 });
      report({ entry, pointer, message: 'User message is blank.', providerError: spoken ?? ALL_MESSAGES_EMPTY });
    }
  },
};
