import type { TranscriptFormat } from '../formats/format.js';
import type { Entry } from '../model/entry.js';
import { indexIds } from '../model/tree.js';
import type { Transcript } from '../model/transcript.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * An entry written twice (a retried append) is the same line twice: same id, same content, at
 * most another time of writing (see TranscriptFormat.copyKey). The
 * earlier copy goes when nothing written between the two names it as parent; the later copy then
 * stands where every reader already looked for it (pi keeps the last entry of an id, and a
 * session resumes from its last line). Entries that share an id but differ are left alone: which
 * one each child meant cannot be known. `lineBytes` reads an entry's line; without it nothing is
 * provably a copy.
 */
export function dropCopiedEntries(transcript: Transcript, format: TranscriptFormat, builder: PlanBuilder, lineBytes: ((entry: Entry) => Buffer) | undefined): void {
  const entries = transcript.entries;
  const duplicates = indexIds(entries, 'last').duplicateIds;
  if (duplicates.length === 0) return;
  // Without the bytes nothing is provably a copy: the plan says it needs them (see settle).
  if (lineBytes === undefined) return builder.needBytes();
  const key = (entry: Entry) => format.copyKey(JSON.parse(lineBytes(entry).toString('utf8')));
  // Where the children of each shared id were written, found in one pass: a resumed session can copy thousands of lines.
  const children = new Map<string, number[]>(duplicates.map(({ entry }) => [entries.at(entry).id!, []]));
  for (const child of entries) if (child.parentId != null) children.get(child.parentId)?.push(child.index);
  for (const { entry, first } of duplicates) {
    const earlier = entries.at(first);
    const later = entries.at(entry);
    if (earlier.line === later.line || builder.skipped(earlier.line)) continue;
    if (children.get(later.id!)!.some((child) => child > first && child < entry)) continue;
    if (key(earlier) !== key(later)) continue;
    builder.skip(earlier.line);
    builder.count('droppedDuplicates');
    forget(earlier);
  }
}

/** The model follows the plan, as a relink does: the dropped copy is no longer a node of the tree or the context. */
function forget(entry: Entry): void {
  entry.kind = 'unknown';
  entry.id = undefined;
  entry.parentId = undefined;
  entry.role = undefined;
  entry.inContext = false;
  entry.toolCalls = undefined;
  entry.toolResults = undefined;
}
