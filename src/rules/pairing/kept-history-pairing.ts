import type { KeptHistoryProblem } from '../../model/entry.js';
import { contracts } from '../../providers/index.js';
import { worded } from '../contract/terms.js';
import type { Rule } from '../rule.js';

/** The history goes to the Responses API as Codex resumes it, whatever provider the file is judged against. */
const RESPONSES = contracts['openai-responses'];

const WORDS: Record<KeptHistoryProblem['kind'], string> = {
  'missing-result': 'has no result in the kept history',
  'orphan-result': 'answers no call in the kept history',
  'displaced-result': 'comes before its call in the kept history',
  'duplicate-result': 'answers a call that was already answered in the kept history',
  'duplicate-call': 'reuses the id of an earlier call in the kept history',
};

export const keptHistoryPairing: Rule = {
  meta: {
    id: 'kept-history-pairing',
    severity: 'error',
    category: 'pairing',
    fix: 'unsafe',
    description: 'The history a compaction keeps inside its own record has broken tool call pairs.',
    docs: `## What it does
Checks the history a compaction record carries itself (Codex's \`replacement_history\`): every
call answered once, after it, and every result answering a call before it.

## Why is this bad?
On resume the agent replaces everything before the compaction with that list and sends it as it
stands. A broken pair inside it fails every later request with the provider's pairing error
(\`No tool output found for function call …\`), and \`/compact\` keeps writing it back (openai/codex
#5385).

## Fix
repair pairs the list again inside the record: later reuses of a call id are renamed, results
before their call are moved after it, results with no call and second results go, and an
unanswered call is dropped (discard) or answered with \`"aborted"\` (synthetic). Unsafe: it changes
what the model is told about those calls.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    const problems = entry.keptHistoryProblems;
    if (problems === undefined) return;
    for (const problem of problems) {
      const term = problem.kind === 'missing-result' ? 'missing-tool-result' : problem.kind === 'orphan-result' || problem.kind === 'displaced-result' ? 'orphan-tool-result' : undefined;
      const providerError = term === undefined ? undefined : worded({ contract: RESPONSES, term: RESPONSES.terms[term]! }, { id: problem.callId }).providerError;
      report({
        entry,
        pointer: problem.pointer,
        message: `${problem.kind === 'duplicate-call' || problem.kind === 'missing-result' ? 'Call' : 'Result for'} ${problem.callId} ${WORDS[problem.kind]}.`,
        ...(providerError === undefined ? {} : { providerError }),
      });
    }
  },
};
