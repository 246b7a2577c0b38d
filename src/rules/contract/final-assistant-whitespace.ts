import { blocksPointer } from '../../model/transcript.js';
import { ASSISTANT } from '../../model/entry-bits.js';
import { enforcedBy } from '../../providers/index.js';
import type { Rule } from '../rule.js';
import { contractTerm, worded } from './terms.js';

export const finalAssistantWhitespace: Rule = {
  meta: {
    id: 'final-assistant-whitespace',
    severity: 'warning',
    category: 'contract',
    fix: 'safe',
    description: 'The history ends with an assistant message whose text ends in whitespace.',
    providers: enforcedBy('final-assistant-whitespace'),
    docs: `## What it does
For providers that treat a final assistant message as a prefill (Anthropic, also on Vertex and
Bedrock), finds a replayed history that ends with an assistant message whose last text ends in
whitespace.

## Why is this bad?
Such a request is rejected with \`messages: final assistant content cannot end with trailing
whitespace\`. It is a warning, not an error: an agent normally sends the next user message after
it, and then the assistant message is no longer final. It fails when the session is continued
without a new user message (a resumed run, a "continue" request).

## Fix
repair strips the whitespace at the end of that message's last text; nothing else of the message
changes (its reasoning blocks least of all).`,
  },
  check({ analysis, report }) {
    const terms = contractTerm(analysis, 'final-assistant-whitespace');
    if (terms === undefined) return;
    const store = analysis.entries;
    const path = analysis.replay;
    const { indices, messageIndex } = path.context;
    for (let at = indices.length - 1; at >= 0; at--) {
      if (messageIndex[at] === -1) continue;
      const i = indices[at]!;
      if (store.roleCode(i) === ASSISTANT && store.rare.get(i)?.trailingWhitespace === true) {
        const entry = path.context.at(at);
        report({ path, entry, pointer: `${entry.pointer}${blocksPointer(analysis.transcript)}`, message: 'The final assistant message ends in whitespace.', ...worded(terms, { message: messageIndex[at]! }) });
      }
      return;
    }
  },
};
