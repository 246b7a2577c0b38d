import type { Rule } from '../rule.js';
import { ALL_MESSAGES_EMPTY } from '../provider-errors.js';

export const blankUserMessage: Rule = {
  meta: {
    id: 'blank-user-message',
    severity: 'warning',
    category: 'content',
    fix: 'safe',
    description: 'A user message has no text (empty, or only whitespace).',
    docs: `## What it does
Finds user messages whose content is an empty string, an empty list, or only blank text blocks.

## Why is this bad?
Providers reject empty user messages. pi drops them when it builds the request, which merges the
turns around them and, in a short session, can leave no message at all
("messages: at least one message is required", OpenClaw #76829). Current OpenClaw rewrites them
on disk to \`(continue)\`.

## Fix
repair writes \`(continue)\`, as current OpenClaw does.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    if (entry.role === 'user' && entry.blankText) {
      report({
        entry,
        pointer: `${entry.pointer}/content`,
        message: 'User message is blank.',
        providerError: ALL_MESSAGES_EMPTY,
      });
    }
  },
};
