import { lineIssueRule } from './line-issue-rule.js';

export const tornFinalLine = lineIssueRule(
  {
    id: 'torn-final-line',
    severity: 'error',
    category: 'syntax',
    fix: 'safe',
    description: 'The last line was cut off mid-write.',
    docs: `## What it does
Finds a final line that has no line ending and does not parse: the writer crashed or the disk
filled up in the middle of an append.

## Why is this bad?
The entry is lost, and the next append glues a new record onto the fragment, turning one broken
line into two lost entries.

## Example
\`\`\`jsonl
{"type":"message","id":"e5f6a7b8","parentId":"d4e5f6a7","message":{"role":"toolResult","toolCallId":"toolu_01
\`\`\`

## Fix
repair drops the fragment. Safe: nothing could read it.`,
  },
  ['torn'],
  (detail) => `Last line is cut off mid-write: ${detail}.`,
);
