import type { Rule } from '../rule.js';
import { responsesNoToolCall, speaksResponses, unexpectedToolResult } from '../provider-errors.js';
import { callLabel } from './describe.js';

export const displacedToolResult: Rule = {
  meta: {
    id: 'displaced-tool-result',
    severity: 'error',
    category: 'pairing',
    fix: 'safe',
    description: 'A tool result exists but does not directly follow its call.',
    docs: `## What it does
Finds tool results that answer a call, but with another message (a user message, an assistant
reply, injected context) between the call and the result.

## Why is this bad?
Providers require results in the message right after the call. Replay code first treats the call
as unanswered and then finds a result with no call in the previous message: HTTP 400 on every
request. A slow tool whose result arrived after the user had already typed again is the usual
cause.

## Fix
repair moves the result directly after its call, in call order, and re-links the path around it.`,
  },
  check({ analysis, report }) {
    const responses = speaksResponses(analysis.transcript);
    for (const path of analysis.paths) {
      for (const occurrence of path.pairing.displaced) {
        const call = path.itemAt(occurrence.at);
        const result = path.resultItem(occurrence.result!);
        report({
          path,
          entry: result.entry,
          pointer: result.result.pointer,
          message: `Result for ${callLabel(occurrence.call)} (line ${call.entry.line}) is not directly after its call.`,
          // The Responses API takes an output anywhere after its call: only one written before it is rejected.
          providerError: !responses ? unexpectedToolResult(result.messageIndex, result.blockIndex, occurrence.call.id!) : occurrence.result!.at < occurrence.at ? responsesNoToolCall(occurrence.call.id!) : undefined,
        });
      }
    }
  },
};
