import { firstSequenceBreak } from '../../model/sequence.js';
import { historySequenceBroken } from '../provider-errors.js';
import type { Rule } from '../rule.js';
import { laterLines } from './sequence-break.js';

export const sequenceOutOfOrder: Rule = {
  meta: {
    id: 'sequence-out-of-order',
    severity: 'warning',
    category: 'structure',
    fix: 'safe',
    description: 'A line of a numbered file does not carry the number after the previous line’s.',
    docs: `## What it does
In files whose lines are numbered (Codex's paginated rollouts, \`"ordinal"\` on every line), finds
the first line whose number is not one more than the line before it: a number used twice, one
that goes back, or a gap.

## Why is this bad?
Graded by what Codex does with it. Codex 0.169's own resume (\`codex resume\`, \`codex exec
resume\`) does not read the numbers of the lines before the last: it resumes such a file without
a word, so this is a warning, not an error. Codex's thread history store, which the app server
(Codex Desktop, the thread list) fills from the rollout, projects the lines in order and stops at
the first one out of count: \`thread history projection for <thread> expected ordinal N, got M\`
(with \`… rejected rollout lines cannot cover that gap\` for a gap), and the thread then shows
only the history before that line (openai/codex #40630, #41657, #45150). An interrupted turn
followed by a resume that numbered from an old count is the usual cause.

## Example
\`\`\`jsonl
{"timestamp":"…","ordinal":7,"type":"response_item","payload":{…}}
{"timestamp":"…","ordinal":7,"type":"event_msg","payload":{…}}
\`\`\`

## Fix
repair numbers the lines again from the first bad one on, once every other fix (which may drop
or add lines) is in place.`,
  },
  check({ analysis, report }) {
    const found = firstSequenceBreak(analysis.entries);
    if (found?.got === undefined) return;
    report({
      // By line, not entry: the count is broken wherever the line stands in the history, compacted or not.
      line: analysis.entries.line(found.index),
      message: `Line number ${found.got} does not follow the line before it: expected ${found.expected}${laterLines(found)}. The agent's own resume reads past it; its thread history stops here.`,
      providerError: historySequenceBroken(found.expected, found.got),
    });
  },
};
