import type { Rule } from '../rule.js';
import { TEXT_BLOCK_EMPTY } from '../provider-errors.js';

export const emptyTextBlock: Rule = {
  meta: {
    id: 'empty-text-block',
    severity: 'warning',
    category: 'content',
    fix: 'safe',
    description: 'A message contains an empty or whitespace-only text block.',
    docs: `## What it does
Finds text blocks whose text is empty or only whitespace, in messages that have other content.

## Why is this bad?
Anthropic and Bedrock reject them ("text content blocks must be non-empty"). pi removes them when
it talks to Anthropic, but other clients and providers send them as they are. Empty thinking
blocks that carry a signature are normal and are not reported.

## Fix
repair drops the block.`,
  },
  check({ analysis, report }) {
    for (const entry of analysis.entries) {
      for (const pointer of entry.blankTextBlocks ?? []) {
        report({ entry, pointer, message: `Empty text block in a ${entry.role} message.`, providerError: TEXT_BLOCK_EMPTY });
      }
    }
  },
};
