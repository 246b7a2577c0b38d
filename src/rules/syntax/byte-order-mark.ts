import type { Rule } from '../rule.js';

export const byteOrderMark: Rule = {
  meta: {
    id: 'byte-order-mark',
    severity: 'warning',
    category: 'syntax',
    fix: 'safe',
    description: 'The file starts with a UTF-8 byte order mark.',
    docs: `## What it does
Finds files that begin with the bytes EF BB BF (a UTF-8 BOM), usually added by an editor.

## Why is this bad?
pi's loader trims the BOM away, but its "most recent session" check parses the first line as it
is, so the session is no longer offered for resuming. Other JSONL readers reject the first line.

## Fix
repair removes the byte order mark.`,
  },
  check({ analysis, report }) {
    if (analysis.transcript.bom) report({ line: 1, message: 'File starts with a UTF-8 byte order mark.' });
  },
};
