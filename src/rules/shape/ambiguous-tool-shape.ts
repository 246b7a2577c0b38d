import type { Rule } from '../rule.js';

export const ambiguousToolShape: Rule = {
  meta: {
    id: 'ambiguous-tool-shape',
    severity: 'warning',
    category: 'shape',
    fix: 'none',
    description: 'A tool call or result cannot be canonicalized without guessing.',
    docs: `## What it does
Finds tool calls and results whose id fields disagree (for example \`id\` and \`toolUseId\` with
different values), and calls whose arguments are a string that is not a JSON object.

## Why is this bad?
Pairing code picks one of the ids, and different agents pick differently, so a call may be
answered for one reader and orphaned for another.

## Fix
Not fixed: \`canonicalize\` leaves the block as it is and reports it, rather than guessing.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    for (const call of entry.toolCalls ?? []) {
      if (call.conflict !== undefined) report({ entry, pointer: call.pointer, message: `Tool call ${call.id ?? `#${call.blockIndex}`} cannot be canonicalized: ${call.conflict}.` });
    }
    for (const result of entry.toolResults ?? []) {
      if (result.conflict !== undefined) report({ entry, pointer: result.pointer, message: `Tool result cannot be canonicalized: ${result.conflict}.` });
    }
  },
};
