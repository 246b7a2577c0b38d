import { ASSISTANT, TOOL_RESULT } from '../../model/entry-bits.js';
import { enforcedBy } from '../../providers/index.js';
import type { Rule } from '../rule.js';
import { contractTerm, worded } from './terms.js';

export const userAfterToolResult: Rule = {
  meta: {
    id: 'user-after-tool-result',
    severity: 'error',
    category: 'contract',
    fix: 'safe',
    description: 'A user message comes right after a tool result, with no assistant message between.',
    providers: enforcedBy('user-after-tool-result'),
    docs: `## What it does
For providers that want an assistant message between tool results and the next user message
(Mistral), finds user messages (and other user-side content) sent right after a tool result.

## Why is this bad?
Mistral rejects the request with \`Unexpected role 'user' after role 'tool'\`. It happens when
the user interrupts a tool loop, or when an aborted turn (which is never sent) stood between the
results and the next prompt. pi inserts a bridge message for Mistral at send time
(\`requiresAssistantAfterToolResult\`); other clients send the history as it stands.

## Fix
repair puts an assistant message between them that says "I have processed the tool results.",
the bridge pi itself sends to providers that need one; its \`provider\` is \`transcript-doctor\`
(Claude Code: model \`transcript-doctor-bridge\`), so no one takes it for the model's words.`,
  },
  check({ analysis, report }) {
    const terms = contractTerm(analysis, 'user-after-tool-result');
    if (terms === undefined) return;
    const store = analysis.entries;
    const path = analysis.replay;
    const { indices, messageIndex } = path.context;
    let previous = 0;
    for (let at = 0; at < indices.length; at++) {
      if (messageIndex[at] === -1) continue;
      const role = store.roleCode(indices[at]!);
      // Anything sent that is neither an assistant message nor a result reaches the provider as user content.
      if (previous === TOOL_RESULT && role !== TOOL_RESULT && role !== ASSISTANT && role !== 0) {
        const entry = path.context.at(at);
        report({ path, entry, pointer: entry.pointer, message: 'User message right after a tool result, with no assistant message between.', ...worded(terms, { message: messageIndex[at]! }) });
      }
      if (role !== 0) previous = role;
    }
  },
};
