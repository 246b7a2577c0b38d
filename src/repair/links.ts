import type { Entry } from '../model/entry.js';
import type { EntryStore } from '../model/entry-store.js';
import { buildTree, inTree } from '../model/tree.js';
import { semanticsOf, type Transcript } from '../model/transcript.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * Structural repairs that change the tree itself, done on the model before the replay path is
 * judged: unparseable lines go; an entry that lost its parent to such a line is re-linked to that
 * line's own parent (read from the broken line); entries without a parent link (old raw
 * injections) or with an unknown one, and the first entry of a parent cycle, are attached to the
 * entry written before them, as pi's own migration links v1 files.
 */
export function repairLinks(transcript: Transcript, builder: PlanBuilder): void {
  const recovered = new Map<string, string | null>();
  for (const issue of transcript.lineIssues) {
    if (issue.kind === 'invalid-utf8') {
      if (!builder.skipped(issue.line)) {
        builder.edit(issue.line, { kind: 'reencode' });
        builder.count('rewrittenEntries');
      }
      continue;
    }
    if (builder.skipped(issue.line)) continue;
    builder.skip(issue.line);
    builder.count('droppedLines');
    if (issue.recovered !== undefined) recovered.set(issue.recovered.id, issue.recovered.parentId);
  }

  const known = new Set<string>();
  for (const entry of transcript.entries) if (inTree(entry) && entry.id !== undefined) known.add(entry.id);

  // An entry written right before another is, in an append-only log, its parent or its parent's sibling.
  let previous: Entry | undefined;
  for (const entry of transcript.entries) {
    if (!inTree(entry)) continue;
    if (entry.parentMissing) {
      relink(entry, previous?.id ?? null, builder);
      entry.parentMissing = false;
    } else if (typeof entry.parentId === 'string' && !known.has(entry.parentId)) {
      relink(entry, recoveredParent(entry.parentId, known, recovered) ?? previous?.id ?? null, builder);
    }
    // Only an entry with an id can be a parent.
    if (entry.id !== undefined) previous = entry;
  }
  const tree = buildTree(transcript.entries, semanticsOf(transcript).duplicateIds);
  for (const cycle of tree.cycles) {
    const first = cycle.map((index) => transcript.entries.at(index)).reduce((a, b) => (b.line < a.line ? b : a));
    relink(first, parentBefore(transcript.entries, first, (id) => !cycle.includes(tree.byId.get(id) ?? -1)), builder);
  }
}

/**
 * The id of the nearest entry written before `entry` that can be its parent: the entry an id
 * resolves to is not always the one written there, when two entries share it.
 */
function parentBefore(entries: EntryStore, entry: Entry, allowed: (id: string) => boolean): string | null {
  for (let at = entry.index - 1; at >= 0; at--) {
    const candidate = entries.at(at);
    const id = candidate.id;
    if (id !== undefined && inTree(candidate) && allowed(id)) return id;
  }
  return null;
}

/** The nearest ancestor a dropped line named, when its start could still be read. */
function recoveredParent(id: string, known: Set<string>, recovered: Map<string, string | null>): string | null | undefined {
  let parent: string | null = id;
  const seen = new Set<string>();
  while (parent !== null && !known.has(parent) && recovered.has(parent) && !seen.has(parent)) {
    seen.add(parent);
    parent = recovered.get(parent)!;
  }
  return parent === null || known.has(parent) ? parent : undefined;
}

export function relink(entry: Entry, parentId: string | null, builder: PlanBuilder): void {
  if (entry.parentId === parentId && !entry.parentMissing) return;
  entry.parentId = parentId;
  builder.edit(entry.line, { kind: 'set-parent', parentId });
  builder.count('relinkedEntries');
}
