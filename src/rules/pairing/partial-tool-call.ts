import { isFailed } from '../../model/entry.js';
import type { Rule } from '../rule.js';
import { pairingWords } from '../contract/terms.js';

export const partialToolCall: Rule = {
  meta: {
    id: 'partial-tool-call',
    severity: 'error',
    category: 'pairing',
    fix: 'safe',
    description: 'A tool call is incomplete (streaming leftovers, or no id, name or arguments).',
    docs: `## What it does
Finds tool-call blocks that still carry a streaming buffer (\`partialJson\`) or lack an id, a
name or arguments.

## Why is this bad?
A call cut off mid-stream cannot be answered: providers reject a call without input
("tool_use.input: Field required"), a call without id cannot be paired, and re-parsing a
half-written buffer crash-loops some agent versions (OpenClaw #69846). In a failed turn, which
replay drops, it is reported as a warning.

## Fix
repair drops the call block and every result for it.`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    if (entry.toolCalls === undefined) return;
    const failed = isFailed(entry);
    for (const call of entry.toolCalls) {
      if (!call.partial && call.missing === undefined) continue;
      const problems = [...(call.partial ? ['a leftover streaming buffer'] : []), ...(call.missing ?? []).map((part) => `no ${part}`)];
      if (problems.length === 0) continue;
      const item = analysis.replay.itemOf(entry.index);
      // Only a call sent without its input has a provider's words (Anthropic's); the finding keeps its own severity.
      const sent = call.missing?.includes('arguments') && !failed && item !== undefined && item.messageIndex >= 0;
      const place = { path: analysis.replay, at: sent ? analysis.replay.context.indices.indexOf(entry.index) : -1 };
      report({
        entry,
        pointer: call.pointer,
        message:
          `Tool call ${call.anonymous ? '(no id)' : call.id ?? `#${call.blockIndex}`} is incomplete: ${problems.join(', ')}` +
          (failed ? ` (in the ${entry.outcome} turn, which replay drops).` : '.'),
        providerError: sent ? pairingWords(analysis, 'partial-tool-call', place, { block: item.blockIndex + call.blockIndex }).providerError : undefined,
        severity: failed ? 'warning' : undefined,
      });
    }
  },
};
