import type { Rule } from '../rule.js';

export const placeholderTurn: Rule = {
  meta: {
    id: 'placeholder-turn',
    severity: 'warning',
    category: 'content',
    fix: 'unsafe',
    description: 'An assistant turn is the agent\'s own placeholder for an answer it never got, saved as if the model had said it.',
    docs: `## What it does
Finds assistant turns the agent wrote in place of a response that was cut short and saved to the
session: in Gemini CLI, a model message that is only "[The previous response was interrupted
before it completed.]". Not the one that ends a history whose turn before it holds function
responses: that is the turn the client adds itself on resume (see unanswered-final-turn), and
dropping it would only have the client add it again.

## Why is this bad?
No provider rejects it, but the agent replays it as the model's own words: Gemini CLI added the
placeholder to close a turn in memory (PR #28700) and then persisted it (PR #28939), and the model
then repeats the sentence in its answers.

## Example
\`\`\`jsonl
{"id":"m2","timestamp":"…","type":"gemini","content":"[The previous response was interrupted before it completed.]","thoughts":[],…}
\`\`\`

## Fix
repair takes the placeholder out of the history: from the message list that holds it, or, for a
message on a line of its own, by emptying its content (the client sends no turn for an empty model
message). Unsafe only in that the file changes; nothing the model said is lost.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    for (const pointer of entry.placeholderTurns ?? []) {
      report({ entry, pointer: pointer === '' ? undefined : pointer, message: 'This assistant turn is the agent’s interrupted-response placeholder, saved as if the model had said it; the model reads it back and repeats it.' });
    }
  },
};
