import type { Rule } from '../rule.js';
import { enforcedBy } from '../../providers/index.js';
import { pairingWords } from '../contract/terms.js';
import { callLabel } from './describe.js';

export const displacedToolResult: Rule = {
  meta: {
    id: 'displaced-tool-result',
    severity: 'error',
    category: 'pairing',
    fix: 'safe',
    description: 'A tool result exists but does not directly follow its call.',
    providers: enforcedBy('displaced-tool-result'),
    docs: `## What it does
Finds tool results that answer a call, but with another message (a user message, an assistant
reply, injected context) between the call and the result.

## Why is this bad?
Providers require results in the message right after the call. Replay code first treats the call
as unanswered and then finds a result with no call in the previous message: HTTP 400 on every
request. A slow tool whose result arrived after the user had already typed again is the usual
cause. The Responses API only wants an output after its call: with \`--provider openai-responses\`
a later one is a warning, and one before its call is rejected as answering nothing.

## Fix
repair moves the result directly after its call, in call order, and re-links the path around it.`,
  },
  check({ analysis, report }) {
    for (const path of analysis.paths) {
      for (const occurrence of path.pairing.displaced) {
        const call = path.itemAt(occurrence.at);
        const slot = occurrence.result!;
        const result = path.resultItem(slot);
        report({
          path,
          entry: result.entry,
          pointer: result.result.pointer,
          message: `Result for ${callLabel(occurrence.call)} (line ${call.entry.line}) is not directly after its call.`,
          // Before its call a result answers nothing yet: the Responses API, which takes an output anywhere after its call, rejects only that.
          ...pairingWords(analysis, slot.at < occurrence.at ? 'orphan-tool-result' : 'displaced-tool-result', { path, at: slot.at, k: slot.k }, { block: result.blockIndex, id: occurrence.call.id! }, { anonymous: occurrence.call.anonymous }),
        });
      }
    }
  },
};
