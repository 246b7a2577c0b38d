import type { ProviderId } from '../../providers/provider-id.js';

/**
 * Event types of Copilot CLI's `events.jsonl` (1.0.102, `schemas/session-events.schema.json`)
 * that take part in the conversation; every other event is bookkeeping the model never sees.
 */
export const USER_MESSAGE = 'user.message';
export const ASSISTANT_MESSAGE = 'assistant.message';
export const TOOL_COMPLETE = 'tool.execution_complete';
export const SESSION_START = 'session.start';
export const COMPACTION_START = 'session.compaction_start';
export const COMPACTION_COMPLETE = 'session.compaction_complete';
/** Names the sub-agent (`agentId`) and the task call that runs it (`data.toolCallId`). */
export const SUBAGENT_STARTED = 'subagent.started';

/** The code of the failed completion the runtime appends for a call it finds unanswered on resume. */
export const INTERRUPTED = 'interrupted';

/**
 * What 1.0.102 writes in that completion (seen in sessions it resumed); earlier builds said "The
 * execution of this tool, or a previous tool was interrupted.".
 */
export const INTERRUPTED_MESSAGE =
  'Tool execution was interrupted before a result was recorded. Its effects may be absent, partial, or already complete, and other tools may have completed successfully. Check the current state before retrying; do not assume success or replay this operation blindly.';

/** An event type as the schema names them: dotted lower-case words (`session.compaction_complete`). */
export function isEventType(type: unknown): type is string {
  return typeof type === 'string' && /^[a-z_]+(\.[a-z_]+)+$/.test(type);
}

/**
 * The provider a Copilot model name talks to through GitHub's API: Claude models get Anthropic's
 * Messages rules (its 400s reach the user as `CAPIError: 400 … tool_use ids were found without
 * tool_result`), GPT and o-series models OpenAI's Chat Completions, Gemini models Gemini's.
 */
export function providerOfModel(model: unknown): ProviderId | 'unknown' {
  if (typeof model !== 'string') return 'unknown';
  const name = model.toLowerCase();
  if (name.startsWith('claude')) return 'anthropic';
  if (name.startsWith('gpt') || /^o\d/.test(name)) return 'openai-chat';
  if (name.startsWith('gemini')) return 'gemini';
  return 'unknown';
}

/** One response's usage (input, cache read and write tokens). */
export const USAGE_RECORD = 'session.usage_record';
