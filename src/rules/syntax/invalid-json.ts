import { lineIssueRule } from './line-issue-rule.js';

export const invalidJson = lineIssueRule(
  {
    id: 'invalid-json',
    severity: 'error',
    category: 'syntax',
    fix: 'safe',
    description: 'A line is not valid JSON.',
    docs: `## What it does
Finds lines that do not parse as one JSON value: two records glued onto one line, a torn record
with the next one written onto it, one record written over several lines (raw line breaks inside a
string, or a pretty-printed record), and lines too long for any JSON parser to hold.

## Why is this bad?
pi and OpenClaw skip such lines silently. Whatever the line held is gone from the conversation,
and every entry whose parent it was is cut off from history. Two glued records usually mean a
write was interrupted and the next append landed on the same line; a record over several lines
means a writer did not escape a line break (Copilot CLI #2649).

## Example
\`\`\`jsonl
{"type":"message","id":"a1b2c3d4","parentId":null,"message":{"role":"user","content":"hi"}}{"type":"message",…
{"type":"message","id":"9f8e7d6c","parentId":"a1b2c3d4","message":{"role":"assistant","content":[{"type":"text","text":"first line
second line"}]}}
\`\`\`

## Fix
repair puts each readable record of a glued line on its own line, in order, and then checks
them like any other line; only pieces that cannot be read are dropped. Records are read from the
left while they parse and from the right after the first piece that does not, so a torn record
never hides the whole one written after it. A record over several lines is joined back onto one,
its raw line breaks escaped (\`\\n\`), so its text stays as it was. Any other broken line is
dropped, and entries that hung on it are re-linked to that line's own parent (read from the
broken line when possible, else the entry written before). Safe: the line was already invisible to pi.

A raw U+2028 or U+2029 inside a string is valid JSON, and every reader of these formats splits
lines on \`\\n\` only, so it is kept and not reported.`,
  },
  ['invalid-json', 'glued', 'split', 'oversized'],
  (detail) => `Line is not valid JSON: ${detail}.`,
);
