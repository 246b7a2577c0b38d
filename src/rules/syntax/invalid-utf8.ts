import { lineIssueRule } from './line-issue-rule.js';

export const invalidUtf8 = lineIssueRule(
  {
    id: 'invalid-utf8',
    severity: 'warning',
    category: 'syntax',
    fix: 'safe',
    description: 'A line contains bytes that are not valid UTF-8.',
    docs: `## What it does
Finds lines with byte sequences that are not valid UTF-8.

## Why is this bad?
pi reads session files as UTF-8 and replaces such bytes with U+FFFD, so the text sent to the
model differs from what was written, and a rewrite of the file makes the damage permanent.

## Fix
repair writes the line again with U+FFFD in place of the bad bytes, exactly as pi already reads it.`,
  },
  ['invalid-utf8'],
  (detail) => `Line contains an ${detail}.`,
);
