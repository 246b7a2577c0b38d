import { unansweredTurn } from '../../model/trailing-turn.js';
import { semanticsOf } from '../../model/transcript.js';
import type { Rule } from '../rule.js';

export const unansweredFinalTurn: Rule = {
  meta: {
    id: 'unanswered-final-turn',
    severity: 'info',
    category: 'structure',
    fix: 'safe',
    description: 'The conversation ends on a user turn nobody answered, which the agent answers itself on resume.',
    docs: `## What it does
In the transcript of an agent that answers such a turn itself when it resumes (Claude Code), finds
a conversation that ends on a user turn nobody answered: a prompt the answer never came for (the
agent was stopped while the model streamed), or tool results the model never saw (the agent was
stopped while a tool ran, or repair answered or dropped the call it had left open).

## Why is this bad?
It is not damage: no provider rejects it. But Claude Code 2.1.328 does not send it as it is: on
resume it puts an assistant turn of its own, "No response requested.", after it and before the
new prompt, and writes the same turn to the file when it repairs a session itself. The history it
sends then differs from the file, which is what a repaired session should not need. Reported as
information only.

## Example
\`\`\`jsonl
{"parentUuid":"…","type":"user","message":{"role":"user","content":"Explain the project in detail."},"uuid":"…",…}
\`\`\`

## Fix
repair writes the agent's own turn after the last line of the conversation: in Claude Code, the
\`<synthetic>\` assistant record "No response requested." it writes itself. The history the agent
sends is then the file's.`,
  },
  check({ analysis, report }) {
    if (!semanticsOf(analysis.transcript).answersTrailingUser || analysis.transcript.live !== undefined) return;
    const index = unansweredTurn(analysis);
    if (index === undefined) return;
    report({ entry: analysis.entries.at(index), message: 'The conversation ends on a user turn nobody answered; the agent answers it itself with an assistant turn of its own when it resumes.' });
  },
};
