import type { Rule } from '../rule.js';
import { pairingWords } from '../contract/terms.js';
import { answeredLabel } from './describe.js';

export const orphanToolResult: Rule = {
  meta: {
    id: 'orphan-tool-result',
    severity: 'error',
    category: 'pairing',
    fix: 'safe',
    description: 'A tool result answers no tool call.',
    docs: `## What it does
Finds tool results whose call id matches no earlier tool call on the replayed path (or that have
no call id at all). In a sub-agent's own conversation (Copilot CLI), a result answers only a call
of that agent: one written in another agent's stream is an orphan there.

## Why is this bad?
Strict providers reject a tool result that does not answer a call in the previous message, and
keep rejecting every later request. Compaction that dropped the call but kept the result, and
results for calls that were later removed, are the usual causes.

## Example
\`\`\`jsonl
{"type":"message",…,"message":{"role":"user","content":"hello",…}}
{"type":"message",…,"message":{"role":"toolResult","toolCallId":"toolu_01…","toolName":"read",…}}
\`\`\`

## Fix
repair drops the result. Safe: no provider accepts it.`,
  },
  check({ analysis, report }) {
    for (const path of analysis.paths) {
      for (const slot of path.pairing.orphans) {
        const item = path.resultItem(slot);
        const { result } = item;
        report({
          path,
          entry: item.entry,
          pointer: result.pointer,
          message: result.callId === undefined ? 'Tool result has no call id.' : `Tool result for ${answeredLabel(result)} answers no tool call.`,
          ...pairingWords(analysis, 'orphan-tool-result', { path, at: slot.at, k: slot.k }, { block: item.blockIndex, id: result.callId ?? '(none)' }, { anonymous: result.anonymous }),
        });
      }
    }
  },
};
