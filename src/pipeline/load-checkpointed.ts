import { statSync, type BigIntStats } from 'node:fs';
import { checkpointsWork, dropCheckpoint, readCheckpoint, writeCheckpoint, type CheckpointPlace, type SavedCheckpoint } from '../cache/checkpoint-file.js';
import type { TranscriptFormat } from '../formats/format.js';
import { documentFormat, formats } from '../formats/registry.js';
import { packValues, unpackValues, type PackedValues } from '../cache/packed-values.js';
import { EntryStore } from '../model/entry-store.js';
import type { Transcript } from '../model/transcript.js';
import { loadTranscriptFile } from './load-file.js';
import type { LineWork } from './line-work.js';
import { loadRange } from './load-range.js';
import { joinRanges } from './load-shared.js';
import { decoderEnds, type DecoderEnd } from './load-transcript.js';

const MiB = 1 << 20;
/** Smaller files are read whole: a checkpoint would cost about what it saves. Tests lower it. */
const minBytes = () => Number(process.env.TRANSCRIPT_DOCTOR_CHECKPOINT_MIN_BYTES ?? 8 * MiB);
/**
 * After a resume, the checkpoint is made again once this much, or a quarter of what it holds,
 * was read after it: writing one costs about what reading a few MiB does, so an agent that
 * appends a little at each start costs a little at each start.
 */
const RENEW_BYTES = 4 * MiB;

/**
 * What a checkpoint holds: the transcript of the bytes it was made from, without its line issues
 * (it has none), and the decoder's end. The entries' replay notes are packed on their own
 * (packed-values.ts): V8 writes each note's keys again.
 */
interface Saved {
  transcript: Pick<Transcript, 'format' | 'entries' | 'lastLine' | 'bom' | 'bytes' | 'lines' | 'parsedLines'>;
  notes: PackedValues | undefined;
  end: DecoderEnd;
}

/**
 * Reads a transcript file as loadTranscriptFile does, but from the checkpoint of the file seen
 * before when it only grew since (see readCheckpoint): the part after the checkpoint is decoded
 * from the decoder state saved there and joined to the saved model, as a second thread's part
 * is joined (exactly what one pass gives). A file read whole leaves a checkpoint for next time.
 * `work`: as for loadTranscriptFile (a file of conversations is never checkpointed). `resumed`: whether
 * the model came from a checkpoint (what a repair writes is planned on a file read whole).
 */
export async function loadCheckpointed(path: string, format: TranscriptFormat | undefined, twoThreads: boolean, work: LineWork | undefined, place: CheckpointPlace | undefined): Promise<{ transcript: Transcript; resumed: boolean }> {
  const before = place === undefined || !checkpointsWork ? undefined : statSync(path, { bigint: true, throwIfNoEntry: false });
  if (place === undefined || before === undefined || !before.isFile() || before.size < BigInt(minBytes()) || documentFormat(path, format) !== undefined) {
    return { transcript: await loadTranscriptFile(path, format, twoThreads, work), resumed: false };
  }
  const saved = readCheckpoint(place, path);
  // A checkpoint that does not hold what this tool saves (or a file that changed as it was read) is no checkpoint.
  const resumed = saved === undefined ? undefined : await resume(saved, path, Number(before.size), format).catch(() => undefined);
  const transcript = resumed ?? (await loadTranscriptFile(path, format, twoThreads, work));
  const renew = resumed === undefined || transcript.bytes - saved!.bytes >= Math.max(RENEW_BYTES, saved!.bytes / 4);
  if (renew && !checkpoint(place, path, transcript, before) && resumed === undefined) dropCheckpoint(place, path);
  return { transcript, resumed: resumed !== undefined };
}

/** The saved model with the bytes after it decoded and joined; undefined when what was saved is not a model this tool reads. */
async function resume(saved: SavedCheckpoint, path: string, size: number, format: TranscriptFormat | undefined): Promise<Transcript | undefined> {
  const data = saved.data as Partial<Saved> | null;
  const end = data?.end;
  const known = typeof end?.format === 'string' ? formats.find((candidate) => candidate.name === end.format) : undefined;
  if (known === undefined || (format !== undefined && format !== known) || typeof data?.transcript?.entries !== 'object' || data.transcript.bytes !== saved.bytes) return undefined;
  const entries = EntryStore.revive(data.transcript.entries);
  entries.notes = data.notes === undefined ? undefined : unpackValues(data.notes);
  const first: Transcript = { ...data.transcript, entries, lineIssues: [], semantics: known.semantics };
  const tail = await loadRange({ path, start: saved.bytes, format: known.name, state: end!.state, lines: Math.ceil((first.lines * size) / saved.bytes), size });
  return joinRanges(first, [tail], known, undefined, undefined, false);
}

/**
 * Saves the model of a file read to its end (whether it did), when another read can start where it ends: a
 * format read record by record, no line it could not read or had to join (a record cut at the
 * end may be completed by what is appended), and a last line that ended.
 */
function checkpoint(place: CheckpointPlace, path: string, transcript: Transcript, before: BigIntStats): boolean {
  const end = decoderEnds.get(transcript);
  const format = formats.find((candidate) => candidate.name === transcript.format);
  const last = transcript.lastLine;
  if (end === undefined || format === undefined || format.conversationOf !== undefined || transcript.lineIssues.length > 0 || last === undefined || !last.parsed || last.eol === 'none') return false;
  const { entries, lastLine, bom, bytes, lines, parsedLines } = transcript;
  // Saved with room for what is read before the checkpoint is renewed, and with the id index:
  // a resume then grows no column by a copy and hashes no id of the saved part again.
  const written = writeCheckpoint(place, path, bytes, before, () => {
    entries.reserve(Math.ceil(entries.length * (1 + Math.min(0.25, RENEW_BYTES / bytes))));
    const notes = entries.notes === undefined ? undefined : packValues(entries.notes);
    const store = Object.assign(Object.create(null), entries, { notes: undefined }) as EntryStore;
    return { transcript: { format: transcript.format, entries: store, lastLine, bom, bytes, lines, parsedLines }, notes, end } satisfies Saved;
  });
  entries.trim();
  return written;
}
