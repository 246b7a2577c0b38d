import type { Analysis } from './analysis.js';
import { ASSISTANT, flagMask, KIND_CODE, KIND_MASK, TOOL_RESULT, USER } from './entry-bits.js';
import { semanticsOf } from './transcript.js';

const MESSAGE = KIND_CODE['message'];
const IN_CONTEXT = flagMask('inContext');

/**
 * The entry the replayed conversation ends on when the agent answers that ending itself with an
 * assistant turn of its own on resume: any user turn nobody answered (see
 * ReplaySemantics.answersTrailingUser), or, for an agent that answers only tool results, the
 * results its format found the conversation ends on (see Entry.trailingResults). Undefined
 * otherwise, and for a session its agent is still writing.
 */
export function selfAnsweredEnding(analysis: Analysis): number | undefined {
  if (analysis.transcript.live !== undefined) return undefined;
  if (semanticsOf(analysis.transcript).answersTrailingUser) return unansweredTurn(analysis);
  for (const [i, rare] of analysis.entries.rare) if (rare.trailingResults === true) return i;
  return undefined;
}

/**
 * The last message of the replayed conversation, when it is a user turn nobody answered: a prompt,
 * or tool results the conversation ends on. An assistant message ends it, even one the agent
 * wrote for itself and does not send (its own answer to such a turn). Undefined otherwise.
 */
function unansweredTurn(analysis: Analysis): number | undefined {
  const { entries, replayed } = analysis;
  for (let k = replayed.length - 1; k >= 0; k--) {
    const i = replayed[k]!;
    // A sub-agent's messages are its own conversation's (see Entry.agent).
    if ((entries.info[i]! & KIND_MASK) !== MESSAGE || entries.rare.get(i)?.agent !== undefined) continue;
    const role = entries.roleCode(i);
    if (role === ASSISTANT) return undefined;
    if ((entries.info[i]! & IN_CONTEXT) === 0) continue;
    return role === USER || role === TOOL_RESULT ? i : undefined;
  }
  return undefined;
}
