import type { Rule } from '../rule.js';
import { pairingWords } from '../contract/terms.js';
import { callLabel } from './describe.js';

export const duplicateToolResult: Rule = {
  meta: {
    id: 'duplicate-tool-result',
    severity: 'error',
    category: 'pairing',
    fix: 'safe',
    description: 'One tool call has more than one result.',
    docs: `## What it does
Finds a second tool result for a call that already has one. When one of the two is a synthetic
"missing tool result" written by an agent's repair code and the other is real, the synthetic one
is reported.

## Why is this bad?
OpenClaw's write guard inserts a synthetic error result when a turn ends with calls pending; if
the real result arrives later it is written as well. Providers reject the extra result as not
answering any call in the previous message.

## Fix
repair keeps one result, a real one over a synthetic one, and drops the other.`,
  },
  check({ analysis, report }) {
    for (const path of analysis.paths) {
      for (const duplicate of path.pairing.duplicates) {
        const item = path.resultItem(duplicate);
        const first = duplicate.occurrence.result!;
        const kept = path.itemAt(first.at);
        const what = item.result.synthetic ? 'Synthetic result' : 'Extra result';
        report({
          path,
          entry: item.entry,
          pointer: item.result.pointer,
          message: `${what} for ${callLabel(duplicate.occurrence.call)}; it is already answered on line ${kept.entry.line}.`,
          ...pairingWords(analysis, 'duplicate-tool-result', { path, at: duplicate.at, k: duplicate.k }, { block: item.blockIndex, id: duplicate.occurrence.call.id! }, { earlier: { path, at: first.at, k: first.k }, anonymous: item.result.anonymous }),
        });
      }
    }
  },
};
