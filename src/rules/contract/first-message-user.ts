import { ASSISTANT } from '../../model/entry-bits.js';
import { enforcedBy } from '../../providers/index.js';
import { instructionsApart, OTHER } from '../../providers/instructions.js';
import type { Rule } from '../rule.js';
import { contractTerm, worded } from './terms.js';

export const firstMessageUser: Rule = {
  meta: {
    id: 'first-message-user',
    severity: 'error',
    category: 'contract',
    fix: 'safe',
    description: 'The history the agent sends opens with an assistant message, not a user message.',
    providers: enforcedBy('first-message-user'),
    docs: `## What it does
For providers that want the conversation to start with a user message (Bedrock Converse), finds
a history whose first message sent is the assistant's: a reply, a turn of calls, reasoning.
System and developer messages of a request line do not count; the provider takes them apart.

## Why is this bad?
Bedrock Converse rejects the request with \`A conversation must start with a user message. Try
again with a conversation that starts with a user message.\` Head truncation, a dataset line cut
from the middle, or a compaction that kept an assistant message first are the usual causes.
Anthropic's own API accepts an assistant message first (since 2024-12).

## Fix
repair puts a user message saying "(continue)" before it, where the format's first message goes:
after pi's session header, as a root user line in Claude Code's envelope, after Codex's session
header and bookkeeping lines, or first in a request's \`messages\` / \`input\` / \`contents\`.`,
  },
  check({ analysis, report }) {
    const terms = contractTerm(analysis, 'first-message-user');
    if (terms === undefined) return;
    const store = analysis.entries;
    const path = analysis.replay;
    const { indices, messageIndex } = path.context;
    const apart = instructionsApart(analysis);
    for (let at = 0; at < indices.length; at++) {
      if (messageIndex[at] === -1) continue;
      const role = store.roleCode(indices[at]!);
      if (apart && role === OTHER) continue;
      if (role === ASSISTANT) {
        const entry = path.context.at(at);
        report({ path, entry, pointer: entry.pointer, message: 'The history opens with an assistant message, not a user message.', ...worded(terms, { message: messageIndex[at]! }) });
      }
      return;
    }
  },
};
