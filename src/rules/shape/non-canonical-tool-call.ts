import type { Rule } from '../rule.js';

export const nonCanonicalToolCall: Rule = {
  meta: {
    id: 'non-canonical-tool-call',
    severity: 'warning',
    category: 'shape',
    fix: 'safe',
    description: 'A tool call is written in a legacy or foreign shape instead of pi’s canonical toolCall block.',
    docs: `## What it does
Finds assistant tool-call blocks that are not \`{"type":"toolCall","id","name","arguments"}\`:
\`toolUse\`, \`functionCall\`, \`tool_use\`, \`tool_call\` or \`function_call\` blocks, \`input\` or
\`toolInput\` instead of \`arguments\`, arguments given as a JSON string, the id in \`toolUseId\`,
\`call_id\` and similar fields, padded tool names, and Kimi ids mangled to \`functions <name>:<n>\`.

## Why is this bad?
pi replays only canonical blocks: a call in another shape is left out of the request, so its
result answers nothing and strict providers reject every later request (seed 004: a context
engine writing \`toolUse\` blocks killed sessions this way). OpenClaw accepts some of these shapes
in memory, but other readers, and older versions, do not.

## Example
\`\`\`json
{"type":"toolUse","id":"toolu_01…","name":"exec","input":{"command":"ls"}}
\`\`\`

## Fix
\`canonicalize\` rewrites the block in place (key order and unknown fields such as
\`thoughtSignature\` kept). Safe: the call means exactly the same.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    for (const call of entry.toolCalls ?? []) {
      if (call.changes === undefined) continue;
      report({ entry, pointer: call.pointer, message: `Tool call ${call.id ?? `#${call.blockIndex}`} is not canonical: ${call.changes.join('; ')}.` });
    }
  },
};
