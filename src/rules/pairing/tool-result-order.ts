import { semanticsOf } from '../../model/transcript.js';
import type { Rule } from '../rule.js';
import { callLabel } from './describe.js';

export const toolResultOrder: Rule = {
  meta: {
    id: 'tool-result-order',
    severity: 'warning',
    category: 'pairing',
    fix: 'safe',
    description: 'Tool results follow their calls but not in call order.',
    docs: `## What it does
Finds parallel tool calls whose results all follow the call message, but in a different order
than the calls.

## Why is this bad?
Anthropic accepts any order within the answering message, but Gemini pairs function responses
by position, and OpenClaw's strict pairing check rejects the transcript and rewrites it in memory
on every request.

## Fix
repair puts the results in call order.`,
  },
  check({ analysis, report }) {
    if (!semanticsOf(analysis.transcript).resultOrder) return;
    for (const path of analysis.paths) {
      for (const occurrence of path.pairing.outOfOrder) {
        const result = path.resultItem(occurrence.result!);
        report({
          path,
          entry: result.entry,
          pointer: result.result.pointer,
          message: `Result for ${callLabel(occurrence.call)} comes before the result of a call made earlier in the same turn.`,
        });
      }
    }
  },
};
