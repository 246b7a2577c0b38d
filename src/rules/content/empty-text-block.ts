import type { Rule } from '../rule.js';
import { semanticsOf } from '../../model/transcript.js';
import { TEXT_BLOCK_EMPTY, TEXT_BLOCK_WHITESPACE } from '../provider-errors.js';
import { enforcedBy } from '../../providers/index.js';
import { namedTerm, spokenError, worded } from '../contract/terms.js';
import { IN_REPLAYED_HISTORY, keptProblems } from '../kept-problems.js';
import type { Entry } from '../../model/entry.js';
import type { RuleContext } from '../rule.js';

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
Empty thinking blocks that carry a signature are normal and are not reported. In a Gemini CLI
session the parts are those its client sends on resume: a model part of no text at all is not
(the client leaves that model turn out), nor are thoughts (it strips them).

With \`--provider\`, the named provider decides: an error in its own words for Anthropic, Vertex,
Bedrock and Gemini, a warning for the Responses API (unconfirmed), nothing for OpenAI Chat and
Mistral, which take such blocks.

## Fix
repair drops the block, and the line when nothing else is left on it (entries that hung on that
line are re-linked to the one before it, as for any dropped line).`,
  },
  entries: 'unusual',
  checkEntry(entry, context) {
    replayedBlanks(entry, context);
    const { analysis, report } = context;
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

/** Blank parts of history an agent replays from its records, placed where the request holds them. */
function replayedBlanks(entry: Entry, { analysis, report }: RuleContext): void {
  const found = keptProblems(entry, 'blank-text');
  if (found.length === 0) return;
  const named = namedTerm(analysis, 'empty-text-block');
  if (named !== undefined && named.term === undefined) return;
  const severity = named !== undefined || semanticsOf(analysis.transcript).blankTextRejected ? undefined : 'warning';
  for (const problem of found) {
    const at = { message: problem.turn, block: problem.part, whitespace: problem.whitespace === true };
    const message = `${at.whitespace ? 'Whitespace-only' : 'Empty'} text block ${IN_REPLAYED_HISTORY}.`;
    if (named !== undefined) {
      report({ entry, pointer: problem.pointer, message, ...worded(named, at) });
      continue;
    }
    const providerError = spokenError(analysis, 'empty-text-block', at) ?? (at.whitespace ? TEXT_BLOCK_WHITESPACE : TEXT_BLOCK_EMPTY);
    report({ entry, pointer: problem.pointer, message, providerError, severity });
  }
}

/** "a user", "an assistant": the role as the message it names is read. */
function withArticle(role: string | undefined): string {
  return role === 'assistant' ? 'an assistant' : `a ${role}`;
}
