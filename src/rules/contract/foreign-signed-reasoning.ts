import { blocksPointer } from '../../model/transcript.js';
import { contracts, enforcedBy } from '../../providers/index.js';
import { foreignReasoning, foreignToChosen, reasoningIsItem } from '../../providers/reasoning.js';
import { IN_REPLAYED_HISTORY, keptProblems } from '../kept-problems.js';
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
\`thoughtSignature\`s are foreign. So are those of a Gemini CLI session judged for another provider:
the parts its client sends with a signature (it strips thought parts before it sends).

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
it would otherwise have to edit. A Gemini CLI session is mended in the copy of each message that
wins, the latest one's too: parts lose their signatures, thought parts go. The model loses what
it reasoned, not what it said earlier: unsafe.`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    const found = keptProblems(entry, 'signed-reasoning');
    if (found.length === 0) return;
    const foreign = foreignToChosen(analysis);
    if (foreign === undefined) return;
    for (const problem of found) {
      const message = `Reasoning signed by ${contracts[foreign.signer].name}, replayed to ${foreign.terms.contract.name}, ${IN_REPLAYED_HISTORY}.`;
      report({ entry, pointer: problem.pointer, message, ...worded(foreign.terms, { message: problem.turn, block: problem.part }) });
    }
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
