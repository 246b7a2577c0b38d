import type { Rule } from '../rule.js';

export const rewindToUnknownMessage: Rule = {
  meta: {
    id: 'rewind-to-unknown-message',
    severity: 'error',
    category: 'structure',
    fix: 'unsafe',
    description: 'A rewind names a message the history does not hold, so the agent drops the whole history.',
    docs: `## What it does
Finds a rewind record that names a message the replayed history does not hold at that point: in
a Gemini CLI session, a \`{"$rewindTo": "<id>"}\` line whose id is not among the messages before it.

## Why is this bad?
Gemini CLI 0.61.0 (\`loadConversationRecord\`) takes back the named message and everything after
it; when it cannot find the id it clears every message. The session then resumes with none of the
conversation before the rewind, without a word: what the user wanted to keep is gone from every
later request.

## Example
\`\`\`jsonl
{"id":"m1","timestamp":"…","type":"gemini","content":"There are two files.",…}
{"$rewindTo":"9f8e7d6c-…"}
\`\`\`

## Fix
repair drops the rewind line: the history before it is replayed again. Unsafe: if the rewind was
meant to take something back, it no longer does (its target is gone, so what it meant is unknown).`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    const id = entry.wipesHistory;
    if (id === undefined) return;
    report({ entry, message: `Rewind to message ${id}, which the history does not hold, so the agent drops every message before it; repair drops the rewind.` });
  },
};
