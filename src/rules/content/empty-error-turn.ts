import { blocksPointer } from '../../model/transcript.js';
import type { Rule } from '../rule.js';
import { bedrockEmptyContent } from '../provider-errors.js';
import { enforcedBy } from '../../providers/index.js';
import { lineRefuses } from '../../providers/choose.js';
import { namedTerm, sentIndex, spokenError, spokenProviderName, worded } from '../contract/terms.js';

export const emptyErrorTurn: Rule = {
  meta: {
    id: 'empty-error-turn',
    severity: 'warning',
    category: 'content',
    fix: 'safe',
    description: 'A failed assistant turn has empty content.',
    providers: enforcedBy('empty-error-turn'),
    docs: `## What it does
Finds assistant messages with \`stopReason: "error"\` and \`content: []\`: the request failed
before the model produced anything.

## Why is this bad?
Bedrock Converse rejects any message with empty content, and replay code that keeps failed turns
sends exactly that. Current OpenClaw rewrites such turns on disk to a one-line placeholder
(\`[assistant turn failed before producing content]\`).

With \`--provider\` naming Bedrock, Gemini or Mistral, it is an error in that provider's words
(Anthropic now accepts an empty assistant turn mid-conversation: a warning).

## Fix
repair writes \`[assistant turn failed before producing content]\`, as current OpenClaw does.`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    if (entry.role === 'assistant' && entry.outcome === 'error' && entry.emptyContent) {
      // A request line whose provider takes it has nothing to refuse; a session's warning is about its agent.
      if (lineRefuses(analysis, 'empty-error-turn') === false) return;
      const named = namedTerm(analysis, 'empty-error-turn');
      if (named?.term !== undefined) {
        const words = worded(named, { message: sentIndex(analysis, entry.index) });
        report({ entry, pointer: `${entry.pointer}${blocksPointer(analysis.transcript)}`, message: `Failed assistant turn has empty content; ${named.contract.name} refuses it.`, ...words, severity: words.severity ?? 'error', raise: true });
        return;
      }
      // Nobody named a provider: the one the session talks to speaks when it refuses the turn; else Bedrock, which does, and the message says who would not.
      const message = sentIndex(analysis, entry.index);
      const spoken = spokenError(analysis, 'empty-error-turn', { message });
      const accepting = spoken === undefined ? spokenProviderName(analysis) : undefined;
      report({
        entry,
        pointer: `${entry.pointer}${blocksPointer(analysis.transcript)}`,
        message: accepting === undefined ? 'Failed assistant turn has empty content.' : `Failed assistant turn has empty content; ${accepting} takes it, other providers refuse it.`,
        providerError: spoken ?? bedrockEmptyContent(message),
      });
    }
  },
};

