import type { Rule } from '../rule.js';

export const nonCanonicalToolResult: Rule = {
  meta: {
    id: 'non-canonical-tool-result',
    severity: 'warning',
    category: 'shape',
    fix: 'safe',
    description: 'A tool result names its call in a field other than toolCallId.',
    docs: `## What it does
Finds tool results that carry their call id in \`toolUseId\`, \`tool_use_id\`, \`tool_call_id\`,
\`callId\` or \`call_id\` instead of \`toolCallId\` (or in addition to it), or with a mangled Kimi id.

## Why is this bad?
pi pairs results only through \`toolCallId\`. A result it cannot pair is sent as an orphan, and
strict providers reject the request ("unexpected tool_use_id").

## Example
\`\`\`json
{"role":"toolResult","toolUseId":"call_abc|fc_123","toolName":"exec",…}
\`\`\`

## Fix
\`canonicalize\` renames the field in place and drops duplicates that agree. Safe.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    for (const result of entry.toolResults ?? []) {
      if (result.changes === undefined) continue;
      report({ entry, pointer: result.pointer, message: `Tool result for ${result.callId ?? '(no id)'} is not canonical: ${result.changes.join('; ')}.` });
    }
  },
};
