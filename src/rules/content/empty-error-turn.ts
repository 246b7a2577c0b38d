import type { Rule } from '../rule.js';
import { bedrockEmptyContent } from '../provider-errors.js';

export const emptyErrorTurn: Rule = {
  meta: {
    id: 'empty-error-turn',
    severity: 'warning',
    category: 'content',
    fix: 'safe',
    description: 'A failed assistant turn has empty content.',
    docs: `## What it does
Finds assistant messages with \`stopReason: "error"\` and \`content: []\`: the request failed
before the model produced anything.

## Why is this bad?
Bedrock Converse rejects any message with empty content, and replay code that keeps failed turns
sends exactly that. Current OpenClaw rewrites such turns on disk to a one-line placeholder
(\`[assistant turn failed before producing content]\`).

## Fix
repair writes \`[assistant turn failed before producing content]\`, as current OpenClaw does.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    if (entry.role === 'assistant' && entry.outcome === 'error' && entry.emptyContent) {
      report({
        entry,
        pointer: `${entry.pointer}/content`,
        message: 'Failed assistant turn has empty content.',
        providerError: bedrockEmptyContent(),
      });
    }
  },
};
