import { selfAnsweredEnding } from '../../model/trailing-turn.js';
import type { Rule } from '../rule.js';

export const unansweredFinalTurn: Rule = {
  meta: {
    id: 'unanswered-final-turn',
    severity: 'info',
    category: 'structure',
    fix: 'safe',
    description: 'The conversation ends on a user turn nobody answered, which the agent answers itself on resume.',
    docs: `## What it does
In the transcript of an agent that answers such a turn itself when it resumes, finds a
conversation that ends on a user turn nobody answered. Claude Code answers any: a prompt the
answer never came for (the agent was stopped while the model streamed), or tool results the model
never saw (the agent was stopped while a tool ran, or repair answered or dropped the call it had
left open). Gemini CLI answers only tool results: a prompt the answer never came for is merged
with the next one.

## Why is this bad?
It is not damage: no provider rejects it. But Claude Code 2.1.328 does not send it as it is: on
resume it puts an assistant turn of its own, "No response requested.", after it and before the
new prompt, and writes the same turn to the file when it repairs a session itself. Gemini CLI
0.61.0 adds a model turn "[The previous response was interrupted before it completed.]" after a
history that ends on function responses (\`closeUnansweredToolResponseTurn\`). The history it
sends then differs from the file, which is what a repaired session should not need. Reported as
information only.

## Example
\`\`\`jsonl
{"parentUuid":"…","type":"user","message":{"role":"user","content":"Explain the project in detail."},"uuid":"…",…}
\`\`\`

## Fix
repair writes the agent's own turn after the last line of the conversation, in both modes: in
Claude Code, the \`<synthetic>\` assistant record "No response requested." it writes itself; in
Gemini CLI, a \`gemini\` message holding only its placeholder (which placeholder-turn then leaves
alone: it is the turn the client would add). The history the agent sends is then the file's.`,
  },
  check({ analysis, report }) {
    const index = selfAnsweredEnding(analysis);
    if (index === undefined) return;
    const entry = analysis.entries.at(index);
    const turn = entry.trailingResults === true ? 'on tool results nobody answered' : 'on a user turn nobody answered';
    report({ entry, message: `The conversation ends ${turn}; the agent answers it itself with an assistant turn of its own when it resumes.` });
  },
};
