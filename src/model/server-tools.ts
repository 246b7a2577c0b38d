import type { Context } from './context.js';
import type { Entry, ServerToolRef } from './entry.js';

export interface OrphanServerResult {
  entry: Entry;
  /** Position in the context, for the message and block index a provider counts. */
  at: number;
  tool: ServerToolRef;
}

/** Server-tool results with no `server_tool_use` of their id earlier in the same message. */
export function orphanServerResults(context: Context): OrphanServerResult[] {
  const orphans: OrphanServerResult[] = [];
  let message = -1;
  const calls = new Set<string>();
  for (let at = 0; at < context.length; at++) {
    const entry = context.at(at);
    if (context.messageIndex[at] !== message) {
      message = context.messageIndex[at]!;
      calls.clear();
    }
    for (const tool of entry.serverTools ?? []) {
      if (tool.kind === 'call' && tool.id !== undefined) calls.add(tool.id);
      else if (tool.kind === 'result' && (tool.id === undefined || !calls.has(tool.id))) orphans.push({ entry, at, tool });
    }
  }
  return orphans;
}
