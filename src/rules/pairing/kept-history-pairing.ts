import { isPairProblem, type KeptPairProblem } from '../../model/entry.js';
import { contracts } from '../../providers/index.js';
import { worded } from '../contract/terms.js';
import type { Rule } from '../rule.js';
import type { Analysis } from '../../model/analysis.js';
import { semanticsOf } from '../../model/transcript.js';
import type { ProviderContract } from '../../providers/contract.js';

/** The history goes to the Responses API as Codex resumes it, whatever provider the file is judged against. */
const RESPONSES = contracts['openai-responses'];

const WORDS: Record<KeptPairProblem['kind'], string> = {
  'missing-result': 'has no result',
  'orphan-result': 'answers no call',
  'displaced-result': 'does not follow its call',
  'duplicate-result': 'answers a call that was already answered',
  'duplicate-call': 'reuses the id of an earlier call',
};

/**
 * The history goes to the agent's own provider when that is Gemini (Gemini CLI replays its log),
 * else to the Responses API, as Codex resumes it, whatever provider the file is judged against.
 */
function sentTo(analysis: Analysis): { contract: ProviderContract; where: string; terms: Partial<Record<KeptPairProblem['kind'], string>> } {
  if (semanticsOf(analysis.transcript).provider === 'gemini') {
    return { contract: contracts.gemini, where: 'in the history the client replays', terms: { 'missing-result': 'missing-tool-result', 'orphan-result': 'orphan-tool-result', 'displaced-result': 'displaced-tool-result', 'duplicate-result': 'duplicate-tool-result' } };
  }
  return { contract: RESPONSES, where: 'in the kept history', terms: { 'missing-result': 'missing-tool-result', 'orphan-result': 'orphan-tool-result', 'displaced-result': 'orphan-tool-result' } };
}

export const keptHistoryPairing: Rule = {
  meta: {
    id: 'kept-history-pairing',
    severity: 'error',
    category: 'pairing',
    fix: 'unsafe',
    description: 'A history an agent replays from inside its records (a compaction\'s kept history, a Gemini CLI log) has broken tool call pairs.',
    docs: `## What it does
Checks the history a record carries itself and the agent replays as it stands: the
\`replacement_history\` of a Codex compaction, and the message list a Gemini CLI session log
replays (the last copy of each message, \`$set.messages\`, \`$rewindTo\`). Every call answered
once, after it, and every result answering a call before it. In a Gemini CLI session the turns are
built as the client builds them: a model message is a turn of calls followed by a turn of the
results its calls carry, user messages of function responses join that turn, and messages the
client never sends (info, errors, commands, its own context, turns of nothing but thoughts, a run
of model turns one of which has a part of no text) are left out. What else Gemini refuses in that
history (a first turn of calls, a misnamed response, a blank text part, another provider's
signatures) is the finding of its contract rule.

## Why is this bad?
On resume the agent sends that history as it stands. A broken pair inside it fails every later
request with the provider's pairing error (\`No tool output found for function call …\`; Gemini:
\`Please ensure that the number of function response parts is equal to the number of function
call parts of the function call turn.\`), and the agent keeps writing it back: \`/compact\` in
Codex (openai/codex #5385); each resume of Gemini CLI 0.61.0 writes every response twice.

## Example
\`\`\`jsonl
{"id":"m1","type":"gemini","content":"","toolCalls":[{"id":"read_file-1","name":"read_file","result":[…],"status":"success"},{"id":"run_shell_command-2","name":"run_shell_command","status":"executing"}]}
\`\`\`

## Fix
repair pairs the list again inside the record. Codex: later reuses of a call id are renamed,
results before their call are moved after it, results with no call and second results go, and an
unanswered call is dropped (discard) or answered with \`"aborted"\` (synthetic). Gemini CLI, in
the copy of the message that wins: an unanswered call is dropped from it (discard; a message with
nothing left goes from its list, or stays empty on its own line, which the client skips) or gets
the result the client records for a cancelled call (synthetic); a second response to a call goes,
the first one kept. Unsafe: it changes what the model is told about those calls.`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    const problems = entry.keptHistoryProblems;
    if (problems === undefined) return;
    const { contract, where, terms } = sentTo(analysis);
    for (const problem of problems) {
      // The rest is what the provider refuses in the history, each its contract rule's finding.
      if (!isPairProblem(problem)) continue;
      const term = terms[problem.kind];
      // A response after a call turn is one too many there; anywhere else it is a response turn out of place.
      const after = problem.kind === 'displaced-result' ? 'user' : 'calls';
      const providerError = term === undefined ? undefined : worded({ contract, term: contract.terms[term as keyof typeof contract.terms]! }, { id: problem.callId, after }).providerError;
      report({
        entry,
        pointer: problem.pointer,
        message: `${problem.kind === 'duplicate-call' || problem.kind === 'missing-result' ? 'Call' : 'Result for'} ${problem.callId} ${WORDS[problem.kind]} ${where}.`,
        ...(providerError === undefined ? {} : { providerError }),
      });
    }
  },
};
