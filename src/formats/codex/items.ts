/**
 * Codex's rollout vocabulary (codex-rs/protocol: `RolloutItem`, `ResponseItem`), and how each
 * item takes part in the Responses API history Codex rebuilds from a rollout.
 */

/** The `type` of a rollout line; anything else is tolerated and skipped, as Codex skips it. */
export const ROLLOUT_TYPES = new Set(['session_meta', 'response_item', 'compacted', 'turn_context', 'event_msg']);

/**
 * A tool call item: the output type that answers it, where its arguments sit, and the tool name
 * when the item has none of its own. `local_shell_call` is answered by a `function_call_output`
 * (codex-rs normalize.rs pairs them so).
 */
export interface CallItem {
  output: string;
  arguments: string;
  /** Arguments must be a string (JSON text or free-form input), as Codex's `String` fields require. */
  textArguments: boolean;
  /** Built-in tools whose items carry no `name`. */
  name?: string;
}

export const CALL_ITEMS: ReadonlyMap<string, CallItem> = new Map([
  ['function_call', { output: 'function_call_output', arguments: 'arguments', textArguments: true }],
  ['custom_tool_call', { output: 'custom_tool_call_output', arguments: 'input', textArguments: true }],
  ['local_shell_call', { output: 'function_call_output', arguments: 'action', textArguments: false, name: 'local_shell' }],
  ['tool_search_call', { output: 'tool_search_output', arguments: 'arguments', textArguments: false, name: 'tool_search' }],
]);

export const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output']);

/**
 * Items the model itself produces besides calls (Codex's `is_model_generated_item`): they belong to
 * the response around them. A tool search the provider ran itself (`execution: "server"`) is part
 * of the response too, call and output alike: nothing on the client answers it.
 */
export const MODEL_ITEMS = new Set(['reasoning', 'web_search_call', 'image_generation_call', 'compaction', 'compaction_summary']);

/** What Codex's own normalisation writes into an output it has to invent for an unanswered call. */
export const ABORTED_OUTPUT = 'aborted';

/** `execution` of a tool search the provider ran inside its response. */
export const SERVER_EXECUTION = 'server';

