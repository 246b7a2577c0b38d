import type { ToolCallRef } from '../../model/entry.js';
import type { PathView } from '../../model/analysis.js';

/** `read` call toolu_01… — how findings name a tool call. */
export function callLabel(call: ToolCallRef): string {
  return call.name ? `\`${call.name.trim()}\` call ${call.id}` : `call ${call.id}`;
}

/** The context item at a path position; positions come from the path's own pairing. */
export function itemAt(path: PathView, at: number) {
  return path.context[at]!;
}
