import { FLAGS, type Entry } from '../model/entry.js';
import type { EntryStore } from '../model/entry-store.js';
import { buildTree, indexIds, inTree, isNode, type Tree } from '../model/tree.js';
import { semanticsOf, type Transcript } from '../model/transcript.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * Structural repairs that change the tree itself, done on the model before the replay path is
 * judged: unparseable lines go; an entry that lost its parent to such a line is re-linked to that
 * line's own parent (read from the broken line); entries without a parent link (old raw
 * injections) or with an unknown one, and the first entry of a parent cycle, are attached to the
 * entry written before them, as pi's own migration links v1 files. Returns the tree of the
 * relinked model when nothing changed it after it was built (no cycle), for analyze to reuse.
 */
const PARENT_MISSING = FLAGS.indexOf('parentMissing');

export function repairLinks(transcript: Transcript, builder: PlanBuilder): Tree | undefined {
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

  const entries = transcript.entries;
  const semantics = semanticsOf(transcript);
  // Relinking changes parents, never ids: the tree below indexes them with this same index.
  const ids = indexIds(entries, semantics.duplicateIds);
  const { byId } = ids;
  const known = { has: (id: string) => byId.has(id) };

  // An entry written right before another is, in an append-only log, its parent or its parent's sibling.
  let previous = -1;
  const previousId = () => (previous === -1 ? null : entries.at(previous).id!);
  for (let i = 0; i < entries.length; i++) {
    if (!isNode(entries, i)) continue;
    // Read from the columns: ids are spelled out only for the entries that need a new link.
    const parent = entries.parentRef[i]!;
    if (entries.flag(i, PARENT_MISSING)) {
      const entry = entries.at(i);
      relink(entry, previousId(), builder);
      entry.parentMissing = false;
    } else if (parent >= 0 && byId.ofHandle(parent) === undefined) {
      const entry = entries.at(i);
      relink(entry, recoveredParent(entry.parentId as string, known, recovered) ?? previousId(), builder);
    }
    // Only an entry with an id can be a parent.
    if (entries.idRef[i] !== -1) previous = i;
  }
  const tree = buildTree(transcript.entries, semantics.duplicateIds, semantics.bridgesUnknownParents === true, ids, semantics.resumesPastCopies === true);
  for (const cycle of tree.cycles) {
    const first = cycle.map((index) => transcript.entries.at(index)).reduce((a, b) => (b.line < a.line ? b : a));
    relink(first, parentBefore(transcript.entries, first, (id) => !cycle.includes(tree.byId.get(id) ?? -1)), builder);
  }
  return tree.cycles.length === 0 ? tree : undefined;
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
function recoveredParent(id: string, known: { has(id: string): boolean }, recovered: Map<string, string | null>): string | null | undefined {
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
