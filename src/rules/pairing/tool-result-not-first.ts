import type { Rule } from '../rule.js';

export const toolResultNotFirst: Rule = {
  meta: {
    id: 'tool-result-not-first',
    severity: 'error',
    category: 'pairing',
    fix: 'safe',
    description: 'A message with tool results has other content before them.',
    docs: `## What it does
Finds messages that answer tool calls but put text, images or anything else before one of their
tool results.

## Why is this bad?
Anthropic requires the tool results to come first in the message that answers the calls; text may
follow, never precede. The request is rejected with "tool_use ids were found without tool_result
blocks immediately after", although every result is there.

## Example
\`\`\`json
{"type":"user","message":{"role":"user","content":[{"type":"text","text":"also…"},{"type":"tool_result","tool_use_id":"toolu_01…",…}]},…}
\`\`\`

## Fix
repair moves the tool results to the front of the message, keeping the order of everything. Safe.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    if (!entry.resultsAfterOther) return;
    const first = entry.toolResults![0]!;
    report({ entry, pointer: first.pointer, message: `Tool results for ${entry.toolResults!.map((r) => r.callId ?? '(no id)').join(', ')} come after other content in their message.` });
  },
};
