import type { Rule } from '../rule.js';

export const schemaViolation: Rule = {
  meta: {
    id: 'schema-violation',
    severity: 'error',
    category: 'format',
    fix: 'safe',
    description: 'A line breaks the schema its agent validates every line against, so the agent refuses the whole file.',
    docs: `## What it does
Checks each line against the schema its agent's loader validates it with: for a Copilot CLI
session, the \`session-events\` JSON Schema the client ships (1.0.102: the envelope's \`id\` and
\`timestamp\`, \`ephemeral\` where the event type allows only \`true\`, and the \`data\` fields
each event type requires, such as \`sessionId\`, \`version\`, \`producer\`, \`copilotVersion\`
and \`startTime\` of \`session.start\`, or \`toolCallId\` and \`success\` of
\`tool.execution_complete\`). The finding names the member. Event types the schema does not know
come from a newer client and are not judged.

## Why is this bad?
Copilot CLI validates every line when it loads a session, and one line that fails makes it refuse
the whole file: "Session file is corrupted (line 355: ephemeral: Invalid literal value, expected
true)" (github/copilot-sdk #1007, after an update changed the schema). The session cannot be
resumed at all.

## Example
\`\`\`jsonl
{"type":"session.idle","data":{},"id":"…","timestamp":"…","parentId":"…","ephemeral":false}
\`\`\`

## Fix
repair writes the value where the schema leaves only one (\`ephemeral\` becomes \`true\`). A
missing required field is left as it is and stays a finding: the schema does not say what it held,
and a made-up session id, tool call id or outcome would put facts into the session that were
never there.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    for (const found of entry.schemaBreaks ?? []) {
      report({
        entry,
        pointer: found.pointer,
        message: `Line breaks the schema the agent validates, so it refuses the whole file: ${found.problem}; ${found.fixable ? 'repair writes the one value it allows' : 'the schema leaves no one value to write, so repair leaves it'}.`,
      });
    }
  },
};
