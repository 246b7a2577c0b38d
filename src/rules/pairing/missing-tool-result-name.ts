import type { Rule } from '../rule.js';
import { functionResponseNameEmpty } from '../provider-errors.js';

export const missingToolResultName: Rule = {
  meta: {
    id: 'missing-tool-result-name',
    severity: 'warning',
    category: 'pairing',
    fix: 'safe',
    description: 'A tool result has no tool name.',
    docs: `## What it does
Finds tool results whose tool name is missing, blank, or padded with whitespace.

## Why is this bad?
Gemini requires each function response to name the function it answers and rejects an empty
name; OpenClaw's strict pairing check treats such a transcript as needing repair on every
request. The name can be restored from the paired call.

## Fix
repair fills the name from the paired call, or trims it; never writes "unknown".`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    entry.toolResults?.forEach((result, k) => {
      const name = result.name;
      if (result.namePointer === undefined || (name !== undefined && name.trim() !== '' && name.trim() === name)) return;
      const item = analysis.replay.itemOf(entry.index);
      const blank = name === undefined || name.trim() === '';
      const problem = name === undefined ? 'has no tool name' : blank ? 'has a blank tool name' : `has a padded tool name "${name}"`;
      report({
        entry,
        pointer: result.namePointer,
        message: `Tool result for ${result.callId ?? '(no call id)'} ${problem}.`,
        providerError: blank && item !== undefined ? functionResponseNameEmpty(item.messageIndex, item.blockIndex + k) : undefined,
      });
    });
  },
};
