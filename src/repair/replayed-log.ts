import type { EntryStore } from '../model/entry-store.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * Damage to a history an agent replays from its log (Gemini CLI): a rewind to a message the
 * history does not hold is dropped, so what came before it is replayed again; placeholder turns
 * go from the lines that hold them; so does every copy of an empty turn that ends the history
 * (a copy on a line of its own takes the line with it).
 */
export function repairReplayedLog(entries: EntryStore, builder: PlanBuilder): void {
  for (const [i, rare] of entries.rare) {
    const line = entries.line(i);
    if (builder.skipped(line)) continue;
    if (rare.wipesHistory !== undefined) {
      builder.skip(line);
      builder.count('droppedLines');
    } else if (rare.placeholderTurns !== undefined) {
      builder.edit(line, { kind: 'drop-placeholder-turns', pointers: rare.placeholderTurns });
      builder.count('droppedAssistantMessages');
    }
    if (rare.emptyTurns === undefined || builder.skipped(line)) continue;
    const listed = rare.emptyTurns.filter((pointer) => pointer !== '');
    if (listed.length < rare.emptyTurns.length) {
      builder.skip(line);
      builder.count('droppedLines');
    } else builder.edit(line, { kind: 'drop-empty-turns', pointers: listed });
    builder.count('droppedAssistantMessages');
  }
}
