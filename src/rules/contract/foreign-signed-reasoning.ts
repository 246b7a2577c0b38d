import { flagMask } from '../../model/entry-bits.js';
import { semanticsOf } from '../../model/transcript.js';
import { chooseProvider } from '../../providers/choose.js';
import { contracts, enforcedBy } from '../../providers/index.js';
import type { Rule } from '../rule.js';
import { contractTerm, worded } from './terms.js';

const SIGNED = flagMask('signedThinking');

export const foreignSignedReasoning: Rule = {
  meta: {
    id: 'foreign-signed-reasoning',
    severity: 'error',
    category: 'contract',
    fix: 'none',
    description: 'A replayed turn carries reasoning signed by another provider.',
    providers: enforcedBy('foreign-signed-reasoning'),
    docs: `## What it does
Finds assistant turns with signed reasoning (Anthropic's thinking signatures, Gemini's thought
signatures, the Responses API's encrypted reasoning) that another provider wrote, when the session
is judged against a provider that verifies signatures (Anthropic, Vertex, Bedrock, Gemini, and the
Responses API as a warning). The provider of each turn is what the session records (pi's
\`provider\` / \`api\`); Claude Code turns are Anthropic's, Codex turns the Responses API's.

## Why is this bad?
A signature verifies only for the provider, route and model that made it: Anthropic answers
\`Invalid \`signature\` in \`thinking\` block\`, Gemini \`Corrupted thought signature.\`. pi turns
other providers' reasoning into plain text when it sends it; other clients replay it as it stands.

## Fix
None in the file: the reasoning must not be edited, and dropping it from the latest turn is
itself rejected. A client drops or converts foreign reasoning when it builds the request.`,
  },
  check({ analysis, report }) {
    const terms = contractTerm(analysis, 'foreign-signed-reasoning');
    if (terms === undefined) return;
    const choice = chooseProvider(analysis);
    const fixed = semanticsOf(analysis.transcript).provider;
    const store = analysis.entries;
    const path = analysis.replay;
    const { indices, messageIndex } = path.context;
    for (let at = 0; at < indices.length; at++) {
      const i = indices[at]!;
      if ((store.info[i]! & SIGNED) === 0 || messageIndex[at] === -1) continue;
      const producer = fixed ?? choice.session?.providerOf(i);
      if (producer === undefined || producer === choice.id) continue;
      const item = path.itemAt(at);
      report({
        path,
        entry: item.entry,
        pointer: `${item.entry.pointer}/content`,
        message: `Reasoning signed by ${contracts[producer].name}, replayed to ${terms.contract.name}.`,
        ...worded(terms, { message: item.messageIndex, block: item.blockIndex }),
      });
    }
  },
};
