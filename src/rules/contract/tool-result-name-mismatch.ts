import type { EntryStore } from '../../model/entry-store.js';
import { enforcedBy } from '../../providers/index.js';
import { IN_REPLAYED_HISTORY, keptProblems } from '../kept-problems.js';
import type { Rule } from '../rule.js';
import { contractTerm, worded } from './terms.js';

export const toolResultNameMismatch: Rule = {
  meta: {
    id: 'tool-result-name-mismatch',
    severity: 'error',
    category: 'contract',
    fix: 'safe',
    description: 'A tool result names another tool than the call it answers.',
    providers: enforcedBy('tool-result-name-mismatch'),
    docs: `## What it does
For providers that pair a function response with its call by name (Gemini), finds tool results
whose tool name differs from the name of the call they answer. A missing or blank name is
\`missing-tool-result-name\`'s finding, not this one's.

## Why is this bad?
Gemini requires \`function_response.name\` to equal the \`function_call.name\` it answers; on
Vertex with Gemini 3 a mismatch is a bare \`INVALID_ARGUMENT\` 400 with no message, so nothing
says which part is wrong. Pi and OpenClaw copy the name from the call when they write the result,
so a mismatch comes from hand edits, merged sessions or other tools' writers. Gemini CLI sends a
recorded result's \`functionResponse\` as it stands, paired with its call by id.

## Fix
repair sets the result's name to the call's (trimmed), in both modes.`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    const found = keptProblems(entry, 'result-name-mismatch');
    if (found.length === 0) return;
    const terms = contractTerm(analysis, 'tool-result-name-mismatch');
    if (terms === undefined) return;
    for (const problem of found) {
      const message = `Tool result for ${problem.callId} names "${problem.name}", but its call is "${problem.callName}", ${IN_REPLAYED_HISTORY}.`;
      report({ entry, pointer: problem.pointer, message, ...worded(terms, { message: problem.turn, block: problem.part }) });
    }
  },
  check({ analysis, report }) {
    const terms = contractTerm(analysis, 'tool-result-name-mismatch');
    if (terms === undefined) return;
    const store = analysis.entries;
    if (!resultsNamed(store)) return;
    const path = analysis.replay;
    for (const occurrence of path.pairing.occurrences) {
      const slot = occurrence.result;
      if (slot === undefined) continue;
      const row = store.resultStart(path.context.indices[slot.at]!) + slot.k;
      // Names are interned: equal names are equal codes, and only differing ones are read.
      const resultName = store.resultName[row]!;
      const callName = store.callName[occurrence.row]!;
      if (store.resultNamePointer[row] === 0 || resultName === 0 || callName === 0 || resultName === callName) continue;
      const wrote = store.strings.text(resultName - 1).trim();
      const called = store.strings.text(callName - 1).trim();
      if (wrote === '' || wrote === called) continue;
      const item = path.resultItem(slot);
      report({
        path,
        entry: item.entry,
        pointer: item.result.namePointer,
        message: `Tool result for ${occurrence.call.id} names "${wrote}", but its call is "${called}".`,
        ...worded(terms, { message: item.messageIndex, block: item.blockIndex }),
      });
    }
  },
};

/** Whether any result names its tool: most request shapes' results carry no name, and then no call needs pairing up. */
function resultsNamed(store: EntryStore): boolean {
  for (let k = 0; k < store.results; k++) if (store.resultNamePointer[k] !== 0) return true;
  return false;
}
