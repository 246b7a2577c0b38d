import type { Rule } from '../rule.js';

export const emptyFinalTurn: Rule = {
  meta: {
    id: 'empty-final-turn',
    severity: 'info',
    category: 'content',
    fix: 'safe',
    description: 'The conversation ends on an assistant turn with nothing in it, which the agent leaves out on resume.',
    docs: `## What it does
Finds assistant turns with nothing in them (no text, no tool calls, no thinking) that end the
conversation the agent replays. Gemini CLI records a model turn of calls with no text first and
its calls only once they complete: a session killed while a tool ran ends on such a turn, and the
calls it made are gone from the file.

## Why is this bad?
It is not damage: no provider sees it. But the agent does not send it as it is: Gemini CLI 0.61.0
makes no turn of an empty model message when it loads the session
(\`convertSessionToClientHistory\`), so the history it sends differs from the file, which is what a
repaired session should not need. Reported as information only; the calls the turn lost are not
in the file to be answered.

## Example
\`\`\`jsonl
{"id":"u2","timestamp":"…","type":"user","content":[{"text":"Run the slow job."}]}
{"id":"m3","timestamp":"…","type":"gemini","content":"","thoughts":[],"tokens":{…},"model":"gemini-2.5-pro"}
\`\`\`

## Fix
repair takes the turn out, in both modes: every copy of it (a line of its own goes, a copy in a
message list goes from the list), since one copy left would take its place again. Nothing the
model said is lost. A message a rewind names stays, or the rewind would take back the whole
history.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    for (const pointer of entry.emptyTurns ?? []) {
      report({ entry, pointer: pointer === '' ? undefined : pointer, message: 'The conversation ends on an assistant turn with nothing in it (no text, no calls, no thinking): the agent was stopped before the turn was filled, and leaves it out when it resumes.' });
    }
  },
};
