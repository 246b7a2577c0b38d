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
  const rare = context.store.rare;
  // Server tools are a rare field: most files have none, and then no entry is looked at.
  if (!someServerTools(rare.values())) return orphans;
  let message = -1;
  const calls = new Set<string>();
  for (let at = 0; at < context.length; at++) {
    if (context.messageIndex[at] !== message) {
      message = context.messageIndex[at]!;
      calls.clear();
    }
    const tools = rare.get(context.indices[at]!)?.serverTools;
    if (tools === undefined) continue;
    const entry = context.at(at);
    for (const tool of tools) {
      if (tool.kind === 'call' && tool.id !== undefined) calls.add(tool.id);
      else if (tool.kind === 'result' && (tool.id === undefined || !calls.has(tool.id))) orphans.push({ entry, at, tool });
    }
  }
  return orphans;
}

function someServerTools(fields: Iterable<{ serverTools?: unknown }>): boolean {
  for (const field of fields) if (field.serverTools !== undefined) return true;
  return false;
}
