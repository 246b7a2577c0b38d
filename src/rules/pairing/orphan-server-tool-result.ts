import type { Rule } from '../rule.js';
import { orphanServerResults } from '../../model/server-tools.js';
import { unexpectedServerToolResult } from '../provider-errors.js';

export const orphanServerToolResult: Rule = {
  meta: {
    id: 'orphan-server-tool-result',
    severity: 'error',
    category: 'pairing',
    fix: 'safe',
    description: 'A server-tool result has no server_tool_use before it in its message (Claude Code).',
    docs: `## What it does
Finds results of tools the provider runs itself (web search, web fetch, advisor, code execution:
blocks such as \`advisor_tool_result\`) whose \`server_tool_use\` call is not earlier in the same
assistant message on the replayed path.

## Why is this bad?
The call and its result are one exchange inside one response. When they end up on different
branches (a compaction or a reconnect during the call), every later request fails with
"unexpected \`tool_use_id\` found in \`advisor_tool_result\` blocks".

## Example
\`\`\`jsonl
{"type":"assistant","parentUuid":"…","message":{"id":"msg_01…","content":[{"type":"advisor_tool_result","tool_use_id":"srvtoolu_01…",…}]},…}
\`\`\`

## Fix
repair drops the result block (the line, when it holds nothing else). Safe: no provider accepts it.`,
  },
  check({ analysis, report }) {
    const { context } = analysis.replay;
    for (const { entry, at, tool } of orphanServerResults(context)) {
      const id = tool.id ?? '(none)';
      report({
        entry,
        pointer: tool.pointer,
        message: `\`${tool.type}\` for ${id} has no \`server_tool_use\` before it in its message.`,
        providerError: unexpectedServerToolResult(context.messageIndex[at]!, context.blockIndex[at]! + tool.blockIndex, tool.type, id),
      });
    }
  },
};
