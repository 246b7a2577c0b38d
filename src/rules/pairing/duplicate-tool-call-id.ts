import type { Rule } from '../rule.js';
import { enforcedBy } from '../../providers/index.js';
import { pairingWords } from '../contract/terms.js';
import { callLabel } from './describe.js';

export const duplicateToolCallId: Rule = {
  meta: {
    id: 'duplicate-tool-call-id',
    severity: 'error',
    category: 'pairing',
    fix: 'safe',
    description: 'Two tool calls on the replayed path share one id.',
    providers: enforcedBy('duplicate-tool-call-id'),
    docs: `## What it does
Finds tool calls whose id was already used by an earlier call on the replayed path.

## Why is this bad?
Anthropic requires tool-call ids to be unique across the whole request, Mistral counts calls and
responses by id and finds them unequal, OpenAI servers reject repeated ids, and results can no
longer be matched to the right call. Gemini's ids are optional and Bedrock's rule is not known:
with \`--provider gemini\` or \`bedrock\` the finding is a warning without a provider text. Providers that number
calls per turn (Kimi's \`functions.read:0\`) and copy-pasted history are the usual causes.

## Fix
repair gives the later call a fresh id in the same shape (\`toolu_…\`, \`call_…\`, Kimi's
\`functions.read:<n>\`), derived from the old id so a repeat run writes the same bytes, and points
the result that answers it (the first result with that id after it, before the next call with
that id) at the new id in the same edit. Nothing is dropped. When the earlier call is itself
dropped by the repair, the id is no longer shared and nothing is renamed.`,
  },
  check({ analysis, report }) {
    for (const path of analysis.paths) {
      for (const { occurrence, first } of path.pairing.duplicateCalls) {
        const item = path.itemAt(occurrence.at);
        report({
          path,
          entry: item.entry,
          pointer: occurrence.call.pointer,
          message: `${callLabel(occurrence.call)} reuses the id of a call on line ${path.itemAt(first.at).entry.line}.`,
          ...pairingWords(analysis, 'duplicate-tool-call-id', { path, at: occurrence.at }, { block: item.blockIndex + occurrence.call.blockIndex, id: occurrence.call.id! }),
        });
      }
    }
  },
};
