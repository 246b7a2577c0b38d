import type { Rule } from '../rule.js';

export const missingParentId: Rule = {
  meta: {
    id: 'missing-parent-id',
    severity: 'error',
    category: 'structure',
    fix: 'safe',
    description: 'A tree entry has no parentId field.',
    docs: `## What it does
In version 2 and 3 files every entry must carry \`parentId\` (\`null\` for the root). This finds
entries that lack the field.

## Why is this bad?
Such lines were written around the session manager, for example by OpenClaw's old
\`chat.inject\` (\`stopReason: "injected"\`). The parent walk stops at them, so when one is the
last line, the whole earlier conversation vanishes from context.

## Fix
repair attaches the entry to the entry written before it, as pi's own v1 migration does.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    if (entry.parentMissing) {
      report({ entry, message: `Entry ${entry.id ?? `on line ${entry.line}`} has no parentId; the history walk stops here.` });
    }
  },
};
