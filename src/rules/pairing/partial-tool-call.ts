import { isFailed } from '../../model/entry.js';
import type { Rule } from '../rule.js';
import { speaksResponses, toolInputRequired } from '../provider-errors.js';

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
      const messageIndex = item?.messageIndex ?? -1;
      report({
        entry,
        pointer: call.pointer,
        message:
          `Tool call ${call.id ?? `#${call.blockIndex}`} is incomplete: ${problems.join(', ')}` +
          (failed ? ` (in the ${entry.outcome} turn, which replay drops).` : '.'),
        providerError: call.missing?.includes('arguments') && !failed && messageIndex >= 0 && !speaksResponses(analysis.transcript) ? toolInputRequired(messageIndex, item!.blockIndex + call.blockIndex) : undefined,
        severity: failed ? 'warning' : undefined,
      });
    }
  },
};
