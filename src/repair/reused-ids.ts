import type { TranscriptFormat } from '../formats/format.js';
import type { Entry } from '../model/entry.js';
import { buildTree, indexIds, isNode } from '../model/tree.js';
import { semanticsOf, type Transcript } from '../model/transcript.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * Where the agent keeps the first entry of an id (Claude Code), a later, different entry that
 * reuses it gets an id of its own, when no line after it names that id as parent. Every child of
 * the id was then written before the copy existed and meant the earlier entry, so no link
 * changes; the copy stops hiding or replacing the earlier entry, and the agent resumes the
 * conversation as it was written. (Claude Code 2.1.328, given a last line that reused the uuid
 * of an earlier call, resumed without that call and its result.) Left alone: copies that later
 * lines hang on (which entry each of those children meant cannot be known), and a line written
 * twice (see TranscriptFormat.copyKey), which dropCopiedEntries handles or leaves as it is, and a
 * last line the agent resumes past (see ReplaySemantics.resumesPastCopies): under an id of its own
 * it would be the line the agent resumes from, and the conversation that hangs on its id is lost.
 * True when it renamed any: the file is judged again in the next pass, each entry under its own id.
 */
export function renameLaterCopies(transcript: Transcript, format: TranscriptFormat, builder: PlanBuilder, lineBytes: ((entry: Entry) => Buffer) | undefined): boolean {
  const entries = transcript.entries;
  const duplicates = indexIds(entries, 'first').duplicateIds;
  // Without the bytes a line written twice cannot be told from two entries (see dropCopiedEntries).
  if (duplicates.length === 0 || lineBytes === undefined) return false;
  const key = (entry: Entry) => format.copyKey(JSON.parse(lineBytes(entry).toString('utf8')));
  const lastChild = new Map<string, number>(duplicates.map(({ entry }) => [entries.at(entry).id!, -1]));
  for (const child of entries) {
    if (child.parentId != null && lastChild.has(child.parentId)) lastChild.set(child.parentId, child.index);
  }
  let renamed = false;
  const resumedPast = resumedPastCopy(transcript);
  for (const { entry, first } of duplicates) {
    const later = entries.at(entry);
    const earlier = entries.at(first);
    if (builder.skipped(later.line) || builder.skipped(earlier.line) || earlier.line === later.line) continue;
    if (lastChild.get(later.id!)! > entry || key(earlier) === key(later) || entry === resumedPast) continue;
    builder.edit(later.line, { kind: 'set-entry-id', id: format.encoder.newId(`${later.id}\n${later.line}`) });
    builder.count('rewrittenEntries');
    renamed = true;
  }
  return renamed;
}

/** The last node, when it is a copy the agent resumes past; -1 otherwise. */
function resumedPastCopy(transcript: Transcript): number {
  const semantics = semanticsOf(transcript);
  if (semantics.resumesPastCopies !== true) return -1;
  const entries = transcript.entries;
  let last = entries.length - 1;
  while (last >= 0 && !isNode(entries, last)) last -= 1;
  if (last === -1) return -1;
  const tree = buildTree(entries, semantics.duplicateIds, semantics.bridgesUnknownParents === true, undefined, true);
  return tree.leaf === last ? -1 : last;
}
