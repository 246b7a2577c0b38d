import type { ToolCallRef, ToolResultRef } from '../../model/entry.js';

/** `read` call toolu_01… — how findings name a tool call; one without an id of its own by its name alone (the pointer says where it is). */
export function callLabel(call: ToolCallRef): string {
  const id = call.anonymous ? '(no id)' : call.id;
  return call.name ? `\`${call.name.trim()}\` call ${id}` : `call ${id}`;
}

/** The call a result names: its id, or for a result that names none in the file, its tool name. */
export function answeredLabel(result: ToolResultRef): string {
  if (!result.anonymous) return result.callId ?? '(none)';
  return result.name?.trim() ? `\`${result.name.trim()}\` (no id)` : '(no id)';
}
