import { firstSequenceBreak } from '../../model/sequence.js';
import { HISTORY_SEQUENCE_MISSING, RESUME_SEQUENCE_MISSING } from '../provider-errors.js';
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
Graded by what Codex does with it. Codex 0.169 continues a paginated rollout from the number of
its last record, so when the **last** line carries none it refuses to resume at all: \`final
paginated rollout record at … is missing an ordinal\` (openai/codex #41657): an error. A line
without a number earlier in the file does not stop the resume (Codex reads past it); only Codex's
thread history store, which the app server (Codex Desktop) fills from the rollout, stops there
(\`paginated rollout line for <thread> is missing an ordinal\`): a warning. A line appended by an
older build, or by a tool that edits rollouts without knowing about the numbers, is the usual
cause.

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
    const { entries } = analysis;
    const found = firstSequenceBreak(entries);
    if (found === undefined || found.got !== undefined) return;
    const lastUnnumbered = entries.sequence(entries.length - 1) === undefined;
    report({
      // By line, not entry: the count is broken wherever the line stands in the history, compacted or not.
      line: entries.line(found.index),
      message: `Line carries no number, though the lines before it are numbered: expected ${found.expected}${laterLines(found)}.${lastUnnumbered ? ' The last line has none either, so the agent will not resume the file.' : ''}`,
      providerError: lastUnnumbered ? RESUME_SEQUENCE_MISSING : HISTORY_SEQUENCE_MISSING,
      severity: lastUnnumbered ? undefined : 'warning',
    });
  },
};
