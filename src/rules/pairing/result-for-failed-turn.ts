import type { Rule } from '../rule.js';
import { pairingWords } from '../contract/terms.js';

export const resultForFailedTurn: Rule = {
  meta: {
    id: 'result-for-failed-turn',
    severity: 'error',
    category: 'pairing',
    fix: 'safe',
    description: 'A tool result answers a call from an aborted or failed assistant turn.',
    docs: `## What it does
Finds tool results (usually synthetic ones) that answer a call made in an assistant turn whose
stop reason is \`error\` or \`aborted\`.

## Why is this bad?
pi drops failed assistant turns when it builds a request, but not their results. The result then
answers a call the provider never sees, and every later request fails with
"unexpected tool_use_id": the permanent 400 loop of OpenClaw issues #9769 and #14322. Only
deleting the session used to recover it.

## Example
\`\`\`jsonl
{"type":"message",…,"message":{"role":"assistant","content":[{"type":"toolCall","id":"toolu_01…","partialJson":"{\\"pa"}],"stopReason":"aborted",…}}
{"type":"message",…,"message":{"role":"toolResult","toolCallId":"toolu_01…","isError":true,"content":[{"type":"text","text":"[openclaw] missing tool result …"}],…}}
\`\`\`

## Fix
repair removes the failed turn's calls and every result answering them. It never adds results for a failed turn: that is what caused the loop.`,
  },
  check({ analysis, report }) {
    for (const path of analysis.paths) {
      for (const failed of path.pairing.failedTurnResults) {
        const item = path.resultItem(failed);
        const turn = path.itemAt(failed.assistantAt).entry;
        const id = item.result.callId!;
        report({
          path,
          entry: item.entry,
          pointer: item.result.pointer,
          message: `Tool result for ${id} answers a call from the ${turn.outcome} turn on line ${turn.line}, which is dropped on replay.`,
          // The call is never sent, so to the provider the result answers nothing.
          ...pairingWords(analysis, 'orphan-tool-result', { path, at: failed.at, k: failed.k }, { block: item.blockIndex, id }),
        });
      }
    }
  },
};
