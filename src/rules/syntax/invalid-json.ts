import { lineIssueRule } from './line-issue-rule.js';

export const invalidJson = lineIssueRule(
  {
    id: 'invalid-json',
    severity: 'error',
    category: 'syntax',
    fix: 'safe',
    description: 'A line is not valid JSON.',
    docs: `## What it does
Finds lines that do not parse as one JSON value, including two records glued onto one line and
lines too long for any JSON parser to hold.

## Why is this bad?
pi and OpenClaw skip such lines silently. Whatever the line held is gone from the conversation,
and every entry whose parent it was is cut off from history. Two glued records usually mean a
write was interrupted and the next append landed on the same line.

## Example
\`\`\`jsonl
{"type":"message","id":"a1b2c3d4","parentId":null,"message":{"role":"user","content":"hi"}}{"type":"message",…
\`\`\`

## Fix
repair puts each readable record of a glued line on its own line, in order, and then checks
them like any other line; only pieces that cannot be read are dropped. Any other broken line is
dropped, and entries that hung on it are re-linked to that line's own parent (read from the
broken line when possible, else the entry written before). Safe: the line was already invisible to pi.`,
  },
  ['invalid-json', 'glued', 'oversized'],
  (detail) => `Line is not valid JSON: ${detail}.`,
);
