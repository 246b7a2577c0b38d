import type { Rule } from '../rule.js';

export const schemaViolation: Rule = {
  meta: {
    id: 'schema-violation',
    severity: 'error',
    category: 'format',
    fix: 'safe',
    description: 'A line breaks what its agent checks on load (the schema it ships), so the agent refuses the whole file.',
    docs: `## What it does
Checks each line against what its agent's loader checks, from the schema the agent ships: for a
Copilot CLI session, the \`session-events\` JSON Schema of 1.0.102 (its event envelope: \`id\`
a UUID, \`parentId\` a UUID or null, \`timestamp\` a string, \`ephemeral\` a boolean, and
\`true\` where the event type allows only that; and the \`data\` fields each event type
requires, such as \`toolCallId\` and \`success\` of \`tool.execution_complete\`, which must
not be null unless the schema says they may). The finding names the member. Event types the
schema does not know come from a newer client and are not judged.

## Why is this bad?
Copilot CLI checks every line when it loads a session, and one line that fails makes it refuse the
whole file: "Session file is corrupted (line 7: missing field \`success\`)", "(line 23: invalid
session event envelope: \`id\` must be a UUID string)" (both tried with 1.0.102). The session
cannot be resumed at all. \`ephemeral: false\` on an event type whose schema allows only
\`true\` is taken by 1.0.102 itself, but a loader that validates the schema refuses it: "Session
file is corrupted (line 355: ephemeral: Invalid literal value, expected true)" (github/copilot-sdk
#1007, after an update); that one is a warning.

## Example
\`\`\`jsonl
{"type":"tool.execution_complete","data":{"toolCallId":"call_1","result":{"content":"a.txt"}},"id":"…","timestamp":"…","parentId":"…"}
\`\`\`

## Fix
repair writes the value where the schema leaves only one (\`ephemeral\` becomes \`true\`). A
missing required field, or an id that is no UUID, is left as it is and stays a finding: the schema
does not say what it held, and a made-up outcome, call id or event id would put facts into the
session that were never there (or break the chain of events that name it).`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    for (const found of entry.schemaBreaks ?? []) {
      const what = found.clientLoads ? `Line breaks the schema its agent ships, which the agent's own loader takes but a loader validating the schema refuses the whole file for: ${found.problem}` : `Line breaks what its agent checks on load, so it refuses the whole file: ${found.problem}`;
      // By line, not entry: the loader reads every line, so a break off the replayed path is as fatal.
      report({
        line: entry.line,
        pointer: found.pointer,
        severity: found.clientLoads ? 'warning' : undefined,
        message: `${what}; ${found.fixable ? 'repair writes the one value it allows' : 'the schema leaves no one value to write, so repair leaves it'}.`,
      });
    }
  },
};
