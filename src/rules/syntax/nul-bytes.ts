import { lineIssueRule } from './line-issue-rule.js';

export const nulBytes = lineIssueRule(
  {
    id: 'nul-bytes',
    severity: 'error',
    category: 'syntax',
    fix: 'safe',
    description: 'A line contains NUL bytes.',
    docs: `## What it does
Finds lines that contain NUL (0x00) bytes, typically a zero-filled tail left by a crash or a
power loss after the file size was extended but before the data was written.

## Why is this bad?
No JSON parser accepts raw NUL bytes, so the line is skipped and its entry lost. A run of NULs
at the end of a file also hides where the real data stops.

## Fix
repair drops the line. Safe: nothing could read it.`,
  },
  ['nul-bytes'],
  (detail) => `Line contains NUL bytes (${detail}).`,
);
