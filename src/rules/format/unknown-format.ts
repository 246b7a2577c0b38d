import type { Rule } from '../rule.js';

export const unknownFormat: Rule = {
  meta: {
    id: 'unknown-format',
    severity: 'warning',
    category: 'format',
    fix: 'none',
    description: 'The file is not in a transcript format transcript-doctor knows.',
    docs: `## What it does
Reports files in which no line looks like a supported transcript format (today: pi and OpenClaw
sessions). Nothing else is checked in such a file.

## Why is this bad?
It is not: the file may be another tool's JSONL. The warning makes sure a file you asked to be
checked is not silently passed as healthy.

## Fix
not fixed: the file is left as it is.`,
  },
  check({ analysis, report }) {
    const { transcript } = analysis;
    if (transcript.format === undefined && transcript.parsedLines > 0) {
      report({ line: 1, message: 'No line looks like a pi / OpenClaw session entry; the file was not checked.' });
    }
  },
};
