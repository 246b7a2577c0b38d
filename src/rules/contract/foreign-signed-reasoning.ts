import { blocksPointer } from '../../model/transcript.js';
import { contracts, enforcedBy } from '../../providers/index.js';
import { foreignReasoning, reasoningIsItem } from '../../providers/reasoning.js';
import type { Rule } from '../rule.js';
import { worded } from './terms.js';

export const foreignSignedReasoning: Rule = {
  meta: {
    id: 'foreign-signed-reasoning',
    severity: 'error',
    category: 'contract',
    fix: 'unsafe',
    description: 'A replayed turn carries reasoning signed by another provider.',
    providers: enforcedBy('foreign-signed-reasoning'),
    docs: `## What it does
Finds assistant turns with signed reasoning (Anthropic's thinking signatures, Gemini's thought
signatures, the Responses API's encrypted reasoning) that another provider wrote, when the session
is judged against a provider that verifies signatures (Anthropic, Vertex, Bedrock, Gemini, and the
Responses API as a warning). The provider of each turn is what the session records (pi's
\`provider\` / \`api\`); Claude Code turns are Anthropic's, Codex turns the Responses API's: a
Codex \`reasoning\` item with \`encrypted_content\` is foreign to every other provider. A line of a
request file was signed by the provider its shape talks to: judged for another one (\`--provider\`),
its Anthropic \`thinking\` signatures, Responses \`encrypted_content\` and Gemini
\`thoughtSignature\`s are foreign.

## Why is this bad?
A signature verifies only for the provider, route and model that made it: Anthropic answers
\`Invalid \`signature\` in \`thinking\` block\`, Gemini \`Corrupted thought signature.\`. pi turns
other providers' reasoning into plain text when it sends it; other clients replay it as it stands.

## Fix
repair drops the foreign reasoning blocks, and the line when nothing else is on it (Claude Code
writes a block per line, Codex an item per line); a Gemini part keeps its text or call and loses
its signature, and a thought part goes. The latest assistant turn is different:
Anthropic rejects any change to its reasoning, so that turn goes whole (in Codex, the items of
the latest response), with the results that answer its calls, as repair does for a signed turn
it would otherwise have to edit. The model loses what it reasoned, not what it said earlier:
unsafe.`,
  },
  check({ analysis, report }) {
    const foreign = foreignReasoning(analysis);
    if (foreign === undefined) return;
    const path = analysis.replay;
    // A reasoning item (Codex, Responses requests) is the reasoning itself; elsewhere it is among the message's blocks.
    const within = reasoningIsItem(analysis) ? '' : blocksPointer(analysis.transcript);
    for (const { at, signer } of foreign.found) {
      const item = path.itemAt(at);
      report({
        path,
        entry: item.entry,
        pointer: `${item.entry.pointer}${within}`,
        message: `Reasoning signed by ${contracts[signer].name}, replayed to ${foreign.terms.contract.name}.`,
        ...worded(foreign.terms, { message: item.messageIndex, block: item.blockIndex }),
      });
    }
  },
};
