import type { MessageSummary } from './summary.js';
import type { ReplayedMessage } from './history.js';

/** How the replayed history ends, as far as the client mends it itself on resume. */
export interface HistoryEnding {
  /** Model messages with nothing to send after the last message sent: the client makes no turn of them. */
  empty: ReplayedMessage[];
  /** The message whose function responses end the history: the client adds its placeholder turn after it. */
  results?: ReplayedMessage;
  /** The client's own placeholder turn closing a history that ends on responses, the one it would add. */
  closing?: ReplayedMessage;
}

/**
 * Reads the end of the history the way Gemini CLI 0.61.0 meets it on resume:
 * `convertSessionToClientHistory` makes no turn of a model message with nothing in it (a turn of
 * calls is recorded empty, and its calls only once they complete, so a kill while a tool runs
 * leaves it so), and `GeminiChat.closeUnansweredToolResponseTurn` adds a model turn
 * "[The previous response was interrupted before it completed.]" after a history whose last turn
 * holds function responses, before the next prompt.
 */
export function historyEnding(messages: readonly ReplayedMessage[]): HistoryEnding {
  const ending: HistoryEnding = { empty: [] };
  let last = messages.length - 1;
  for (; last >= 0 && !messages[last]!.summary.sent; last--) {
    if (messages[last]!.summary.type === 'gemini') ending.empty.unshift(messages[last]!);
  }
  if (last < 0) return ending;
  const final = messages[last]!;
  if (endsOnResponses(final.summary)) {
    ending.results = final;
    return ending;
  }
  if (!final.summary.placeholder) return ending;
  let before = last - 1;
  while (before >= 0 && !messages[before]!.summary.sent) before--;
  if (before >= 0 && endsOnResponses(messages[before]!.summary)) ending.closing = final;
  return ending;
}

/** The last turn the client makes of this message holds function responses: a user message's own, or the results of a model message's calls. */
function endsOnResponses(summary: MessageSummary): boolean {
  if (summary.type === 'user') return summary.responses.length > 0;
  return summary.calls.some((call) => call.responses.length > 0);
}
