import { lineIssueRule } from './line-issue-rule.js';

export const jsonDocument = lineIssueRule(
  {
    id: 'json-document',
    severity: 'error',
    category: 'syntax',
    fix: 'none',
    description: 'The file is one JSON document, not JSON Lines.',
    docs: `## What it does
Finds a file whose lines together make one JSON value (a pretty-printed array, or an object no
agent writes as a line of its own) and none of which is a record: a file saved with the wrong
tool, or a JSON export given a \`.jsonl\` name.

## Why is this bad?
Every agent that reads JSON Lines parses one line at a time. Not one line of such a file parses on
its own, so the agent sees no entries at all, and pi would overwrite the file with a fresh header.
Reported once for the whole file, instead of once per line.

## Example
\`\`\`jsonl
[
  {"role": "user", "content": "hi"},
  {"role": "assistant", "content": "hello"}
]
\`\`\`

## Fix
None: what the document means as a session is for its author to say. If it holds one record per
array item, \`jq -c '.[]' file.json > file.jsonl\` writes them as JSON Lines. A pretty-printed
record of a known format is not this rule's: \`invalid-json\` joins it onto one line.`,
  },
  ['document'],
  (detail) => `The file is one JSON document, not JSON Lines: ${detail}; no agent reads it as a session.`,
);
