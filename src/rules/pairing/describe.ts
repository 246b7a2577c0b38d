import type { ToolCallRef } from '../../model/entry.js';

/** `read` call toolu_01… — how findings name a tool call. */
export function callLabel(call: ToolCallRef): string {
  return call.name ? `\`${call.name.trim()}\` call ${call.id}` : `call ${call.id}`;
}
