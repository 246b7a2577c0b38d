import type { Rule } from '../rule.js';
import { figure, measured, placeOf, sizeWords } from './measured.js';

export const stringTooLong: Rule = {
  meta: {
    id: 'string-too-long',
    severity: 'error',
    category: 'size',
    fix: 'none',
    description: 'One string in the request (a message, a tool output) is longer than the provider takes.',
    docs: `## What it does
Finds the longest single string the replayed request holds (a message's text, a tool result's
output, a call's arguments) and compares its length with the provider's string limit
(\`src/providers/size/size-limits.ts\`): OpenAI Responses (Codex) 10,485,760 characters; DashScope
(Qwen Code's default endpoint) 20,000,000; OpenAI Chat 1,048,576, from a 2024 report (a warning).

## Why is this bad?
The provider rejects the request whatever the token count, so a single huge tool output (a log,
a minified bundle, a base64 blob printed by a command) ends the session. What each answers:
- OpenAI Responses: \`Invalid 'input[0].content': string too long. Expected a string with maximum length 10485760, but got a string with length 62114761 instead.\` (\`code: string_above_max_length\`)
- OpenAI Chat (2024): \`Invalid 'messages[17].content': string too long. Expected a string with maximum length 1048576, but got a string with length 1744259 instead.\`
- DashScope: \`[API Error: 400 String value length (20054016) exceeds the maximum allowed (20000000, from \\\`StreamReadConstraints.getMaxStringLength()\\\`)]\` (Qwen Code #747, #1082)

## Example
A Codex session in which \`cat\` of a 12 MB log returned it whole as one function output.

## Fix
None in repair. \`transcript-doctor slim <session>\` trims old tool results to a head and tail.`,
  },
  check({ analysis, report }) {
    const { request, judge } = measured(analysis);
    const limit = judge.limits.stringLength;
    const longest = request.longestString;
    if (limit === undefined || longest === undefined || longest.length <= limit.value) return;
    const place = placeOf(analysis, longest.entry);
    report({
      entry: analysis.entries.at(longest.entry),
      pointer: longest.pointer,
      message: `A string of ${figure(longest.length)} characters (message ${place.message}); ${figure(limit.value)} at most (${limit.source}).`,
      ...sizeWords(limit, 'stringLength', { ...place, found: longest.length, limit: limit.value }),
    });
  },
};
