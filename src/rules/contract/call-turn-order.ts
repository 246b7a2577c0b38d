import { ASSISTANT } from '../../model/entry-bits.js';
import { enforcedBy } from '../../providers/index.js';
import { instructionsApart, OTHER } from '../../providers/instructions.js';
import { keptProblems } from '../kept-problems.js';
import type { Rule } from '../rule.js';
import { contractTerm, worded } from './terms.js';

export const callTurnOrder: Rule = {
  meta: {
    id: 'call-turn-order',
    severity: 'error',
    category: 'contract',
    fix: 'safe',
    description: 'A turn of tool calls does not follow a user message or tool results.',
    providers: enforcedBy('call-turn-order'),
    docs: `## What it does
For providers that want every function-call turn right after a user turn or a function-response
turn (Gemini), finds assistant messages with tool calls that open the history or follow another
assistant message. A request line's system and developer messages go to
\`systemInstruction\`, so a call turn after only them opens the history. In a Gemini CLI
session the turns are those the client sends on resume (merged as it merges them), so only a
call turn that opens the history can arise there.

## Why is this bad?
Gemini rejects the request with \`Please ensure that function call turn comes immediately after
a user turn or after a function response turn.\` History that starts with a call (after head
truncation or compaction) and a call turn after an assistant message that was sent on its own
are the usual causes.

## Fix
repair puts a user message saying "(continue)" (OpenClaw's placeholder for a user turn) before
the call turn, as OpenClaw prepends a tiny user turn to a history that starts with the model
(in Gemini CLI, a user message in the client's shape before the model message, in its list or on
a line of its own before the line where the message takes its place).
One that opens the history goes where the format's first message goes: after pi's session
header (a root entry the call turn now hangs on), as a root user line in Claude Code's envelope,
after Codex's session header and bookkeeping lines, or first in a request's \`contents\` /
\`messages\` / \`input\`. A response written over several lines (a thinking or reasoning line
before the call) gets it before its first line.`,
  },
  entries: 'unusual',
  checkEntry(entry, { analysis, report }) {
    const found = keptProblems(entry, 'calls-open-history');
    if (found.length === 0) return;
    const terms = contractTerm(analysis, 'call-turn-order');
    if (terms === undefined) return;
    for (const problem of found) {
      report({ entry, pointer: problem.pointer, message: `Turn of tool calls opens the history the client replays, not a user message or tool results.`, ...worded(terms, { message: problem.turn }) });
    }
  },
  check({ analysis, report }) {
    const terms = contractTerm(analysis, 'call-turn-order');
    if (terms === undefined) return;
    const store = analysis.entries;
    const path = analysis.replay;
    const { indices, messageIndex } = path.context;
    // A request line's system messages go to systemInstruction: a call turn after only them opens the history.
    const apart = instructionsApart(analysis);
    // The role of the message before the current one, and of the current one so far; how many messages so far.
    let before = 0;
    let current = 0;
    let message = -1;
    let seen = 0;
    let reported = -1;
    for (let at = 0; at < indices.length; at++) {
      const index = messageIndex[at]!;
      if (index === -1) continue;
      const i = indices[at]!;
      if (apart && store.roleCode(i) === OTHER) continue;
      if (index !== message) {
        before = current;
        current = store.roleCode(i);
        message = index;
        seen += 1;
      }
      if (reported === index || store.roleCode(i) !== ASSISTANT || !store.hasCalls(i)) continue;
      if (seen === 1 || before === ASSISTANT) {
        reported = index;
        const entry = path.context.at(at);
        const where = seen === 1 ? 'opens the history' : 'follows another assistant message';
        report({ path, entry, pointer: entry.pointer, message: `Turn of tool calls ${where}, not a user message or tool results.`, ...worded(terms, { message: index }) });
      }
    }
  },
};
