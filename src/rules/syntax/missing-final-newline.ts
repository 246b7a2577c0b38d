import type { Rule } from '../rule.js';

export const missingFinalNewline: Rule = {
  meta: {
    id: 'missing-final-newline',
    severity: 'warning',
    category: 'syntax',
    fix: 'safe',
    description: 'The last line has no line ending, so the next append glues onto it.',
    docs: `## What it does
Finds a file whose last line is complete JSON but has no trailing newline.

## Why is this bad?
pi and OpenClaw append entries as \`JSON.stringify(entry) + "\\n"\`. Without a newline at the end,
the next entry lands on the same line, both records become one unparseable line, and both are
lost on the next load.

## Fix
repair adds the line ending.`,
  },
  check({ analysis, report }) {
    const last = analysis.transcript.lastLine;
    if (last !== undefined && last.parsed && last.eol === 'none') {
      report({ line: last.line, message: 'Last line has no line ending; the next appended entry will be glued onto it.' });
    }
  },
};
