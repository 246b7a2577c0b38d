import type { Analysis } from './analysis.js';
import { ASSISTANT, flagMask, KIND_CODE, KIND_MASK, TOOL_RESULT, USER } from './entry-bits.js';

const MESSAGE = KIND_CODE['message'];
const IN_CONTEXT = flagMask('inContext');

/**
 * The last message of the replayed conversation, when it is a user turn nobody answered: a prompt,
 * or tool results the conversation ends on. An assistant message ends it, even one the agent
 * wrote for itself and does not send (its own answer to such a turn). Undefined otherwise.
 */
export function unansweredTurn(analysis: Analysis): number | undefined {
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
