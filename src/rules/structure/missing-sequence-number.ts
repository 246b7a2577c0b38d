import { firstSequenceBreak } from '../../model/sequence.js';
import { RESUME_SEQUENCE_MISSING } from '../provider-errors.js';
import type { Rule } from '../rule.js';
import { laterLines } from './sequence-break.js';

export const missingSequenceNumber: Rule = {
  meta: {
    id: 'missing-sequence-number',
    severity: 'error',
    category: 'structure',
    fix: 'safe',
    description: 'A line of a numbered file carries no number.',
    docs: `## What it does
In files whose lines are numbered (Codex's paginated rollouts, \`"ordinal"\` on every line), finds
the first line after a numbered one that carries no usable number.

## Why is this bad?
Codex refuses to resume the rollout: \`final paginated rollout record … is missing an ordinal\`
(openai/codex #41657). A line appended by an older build, or by a tool that edits rollouts
without knowing about the numbers, is the usual cause.

## Example
\`\`\`jsonl
{"timestamp":"…","ordinal":7,"type":"response_item","payload":{…}}
{"timestamp":"…","type":"response_item","payload":{…}}
\`\`\`

## Fix
repair numbers the lines again from the first bad one on, once every other fix (which may drop
or add lines) is in place.`,
  },
  check({ analysis, report }) {
    const found = firstSequenceBreak(analysis.entries);
    if (found === undefined || found.got !== undefined) return;
    report({
      // By line, not entry: the count is broken wherever the line stands in the history, compacted or not.
      line: analysis.entries.line(found.index),
      message: `Line carries no number, though the lines before it are numbered: expected ${found.expected}${laterLines(found)}.`,
      providerError: RESUME_SEQUENCE_MISSING,
    });
  },
};
