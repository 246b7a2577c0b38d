import type { Rule } from '../rule.js';
import { semanticsOf } from '../../model/transcript.js';
import { TEXT_BLOCK_EMPTY, TEXT_BLOCK_WHITESPACE } from '../provider-errors.js';
import { enforcedBy } from '../../providers/index.js';
import { namedTerm, spokenError, worded } from '../contract/terms.js';

export const emptyTextBlock: Rule = {
  meta: {
    id: 'empty-text-block',
    severity: 'error',
    category: 'content',
    fix: 'safe',
    description: 'A message contains an empty or whitespace-only text block.',
    providers: enforcedBy('empty-text-block'),
    docs: `## What it does
Finds text blocks whose text is empty or only whitespace. In transcripts of agents that talk
only to Anthropic (Claude Code) it is an error; in pi / OpenClaw sessions, which also go to
providers that accept such blocks and whose client removes them for Anthropic, a warning.

## Why is this bad?
Anthropic and Bedrock reject them ("text content blocks must be non-empty", "text content blocks
must contain non-whitespace text"), so every later request of a Claude Code session fails. pi
removes them when it talks to Anthropic, but other clients and providers send them as they are.
Empty thinking blocks that carry a signature are normal and are not reported.

With \`--provider\`, the named provider decides: an error in its own words for Anthropic, Vertex,
Bedrock and Gemini, a warning for the Responses API (unconfirmed), nothing for OpenAI Chat and
Mistral, which take such blocks.

## Fix
repair drops the block, and the line when nothing else is left on it (entries that hung on that
line are re-linked to the one before it, as for any dropped line).`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    const blank = entry.blankTextBlocks;
    if (blank === undefined) return;
    const named = namedTerm(analysis, 'empty-text-block');
    if (named !== undefined) {
      if (named.term === undefined) return;
      const item = analysis.replay.itemOf(entry.index);
      for (const pointer of blank) {
        const whitespace = entry.whitespaceTextBlocks?.includes(pointer) === true;
        const block = (item?.blockIndex ?? 0) + Number(pointer.slice(pointer.lastIndexOf('/') + 1));
        const words = worded(named, { message: item?.messageIndex ?? 0, block, whitespace });
        report({ entry, pointer, message: `${whitespace ? 'Whitespace-only' : 'Empty'} text block in ${withArticle(entry.role)} message; ${named.contract.name} refuses it.`, ...words });
      }
      return;
    }
    const severity = semanticsOf(analysis.transcript).blankTextRejected ? undefined : 'warning';
    const item = analysis.replay.itemOf(entry.index);
    for (const pointer of blank) {
      const whitespace = entry.whitespaceTextBlocks?.includes(pointer) === true;
      const block = (item?.blockIndex ?? 0) + Number(pointer.slice(pointer.lastIndexOf('/') + 1));
      const spoken = spokenError(analysis, 'empty-text-block', { message: item?.messageIndex ?? 0, block, whitespace });
      const providerError = spoken ?? (whitespace ? TEXT_BLOCK_WHITESPACE : TEXT_BLOCK_EMPTY);
      report({ entry, pointer, message: `${whitespace ? 'Whitespace-only' : 'Empty'} text block in ${withArticle(entry.role)} message.`, providerError, severity });
    }
  },
};

/** "a user", "an assistant": the role as the message it names is read. */
function withArticle(role: string | undefined): string {
  return role === 'assistant' ? 'an assistant' : `a ${role}`;
}
