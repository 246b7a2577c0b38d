import type { Rule } from '../rule.js';
import { figure, measured, sizeWords } from './measured.js';

export const tooManyToolCalls: Rule = {
  meta: {
    id: 'too-many-tool-calls',
    severity: 'error',
    category: 'size',
    fix: 'none',
    description: 'One assistant message in the request holds more tool calls than the provider takes.',
    docs: `## What it does
Counts the tool calls of each assistant message the replayed request sends and compares the
largest count with the provider's limit (\`src/providers/size/size-limits.ts\`): 128 on OpenAI Chat
and on GitHub Copilot. (OpenAI also takes at most 128 tool definitions a request, but those are the
agent's, not the file's.)

## Why is this bad?
The provider rejects every request that replays the message. A model that fanned out into hundreds
of parallel calls (a sub-agent sweep, a batch of reads) leaves a session that cannot be resumed.
What each answers:
- OpenAI Chat: \`Invalid 'messages[2].tool_calls': array too long. Expected an array with maximum length 128, but got an array with length 200 instead.\`
- Copilot: \`Invalid 'messages[21].tool_calls': array too long. Expected an array with maximum length 128, but got an array with length 131 instead.\` (\`code: invalid_request_body\`, Copilot CLI #669)
- tools: \`Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 325 instead.\`

## Example
A Copilot CLI session whose assistant turn requested 131 file reads at once.

## Fix
None in the file: splitting a message's calls changes what the model did. \`transcript-doctor slim\`
with a compaction gets the message out of the replayed history.`,
  },
  check({ analysis, report }) {
    const { request, judge } = measured(analysis);
    const limit = judge.limits.toolCallsPerMessage;
    const most = request.mostToolCalls;
    if (limit === undefined || most === undefined || most.count <= limit.value) return;
    report({
      entry: analysis.entries.at(most.entry),
      message: `An assistant message (message ${most.messageIndex}) holds ${figure(most.count)} tool calls; ${figure(limit.value)} at most (${limit.source}).`,
      ...sizeWords(limit, 'toolCalls', { message: most.messageIndex, block: 0, found: most.count, limit: limit.value }),
    });
  },
};
