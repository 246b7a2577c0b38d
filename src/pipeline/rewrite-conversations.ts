import type { LineConversation, TranscriptFormat } from '../formats/format.js';
import { readFileLines } from '../io/file-lines.js';
import { gluedRecords } from '../io/glued-records.js';
import { SplitJoiner } from '../io/split-records.js';
import type { LineEnding } from '../io/line-reader.js';
import { rewriteJson } from '../json/rewrite.js';
import { EntryStore } from '../model/entry-store.js';
import { splitSpans, type Transcript } from '../model/transcript.js';
import { addCounts, emptyCounts, isEmptyPlan } from '../repair/plan.js';
import { keepsMendedRules, leavesNothingToMend } from '../rules/index.js';
import type { Rule } from '../rules/rule.js';
import { checkConversation, checkShapeless, placeFindings, planConversation, repairConversation, LineStore } from './conversation.js';
import type { ConversationPlan, WrittenConversations } from './conversation-plan.js';
import type { Finding, RepairSummary } from './finding.js';
import type { ConversationSink } from './load-transcript.js';
import { lineJob, shifted, type LineRepair, type LineResults, type RepairedLine } from './line-work.js';
import type { Chunk } from './passes.js';
import { copiesAround, writeSpliced } from './splice-conversations.js';

/** The repaired lines one read holds for the second, in bytes; past this, the second read repairs the rest. */
const REPAIRED_BYTES = 16 << 20;

/**
 * The first read: each line judged and, when a rule that a repair mends faults it, planned;
 * nothing about a line is kept beyond that. Judging costs a third of planning, and most lines of
 * a dataset are sound. With any of those rules turned off, every line is planned. A changing line
 * is repaired here, where two threads share the work, while the lines kept stay few enough
 * (REPAIRED_BYTES): the second read can then copy the file around them.
 */
export function planConversations(how: LineRepair, rules: readonly Rule[]): ConversationPlan {
  const changing = new Set<number>();
  const findings = new Map<number, Finding[]>();
  const repaired = new Map<number, RepairedLine>();
  let repairedBytes = 0;
  const shared = new LineStore();
  const judgeFirst = keepsMendedRules(rules);
  // Pushed one by one: a line of a hundred thousand findings would overflow a spread, and copying per finding costs n².
  const keep = (line: number, found: readonly Finding[]): void => {
    if (found.length === 0) return;
    let earlier = findings.get(line);
    if (earlier === undefined) findings.set(line, (earlier = []));
    for (const finding of found) earlier.push(finding);
  };
  const take: ConversationSink = (conversation, place, format) => {
    if (conversation === undefined) return keep(place.number, checkShapeless(place.number, rules));
    let found: Finding[] | undefined;
    if (judgeFirst) {
      found = checkConversation(conversation, place.number, rules, undefined, shared, how.provider);
      if (leavesNothingToMend(found)) return keep(place.number, found);
    }
    const repair = place.bytes === undefined || repairedBytes >= REPAIRED_BYTES ? undefined : () => repairLine(place.bytes!.toString('utf8'), format, how, rules, shared, { start: place.offset, end: place.offset + place.byteLength });
    const hold = (line: RepairedLine): void => {
      changing.add(place.number);
      repairedBytes += line.bytes?.length ?? 0;
      repaired.set(place.number, line);
    };
    // A faulted line that can be kept repaired goes straight to its repair, whose first pass is its plan.
    if (found !== undefined && repair !== undefined) {
      const line = repair();
      return line.changed ? hold(line) : keep(place.number, found);
    }
    const plan = planConversation(conversation, how, shared);
    if (isEmptyPlan(plan)) return keep(place.number, found ?? checkConversation(conversation, place.number, rules, plan.analysis));
    if (repair !== undefined) hold(repair());
    else changing.add(place.number);
  };
  const merge = (found: LineResults, lines: number): void => {
    const moved = shifted(found, lines);
    for (const line of moved.changing) changing.add(line);
    for (const finding of moved.findings) keep(finding.line, [finding]);
    for (const [line, done] of found.repaired ?? []) repaired.set(line + lines, done);
  };
  const results = (): LineResults => ({ findings: [...findings.values()].flat(), changing: [...changing], repaired: [...repaired] });
  return { take, changing, findings, repaired, job: lineJob(rules, how.provider, how), merge, results };
}

/** One line's JSON text repaired on its own to a fixed point, written back by span. */
function repairLine(text: string, format: TranscriptFormat, how: LineRepair, rules: readonly Rule[], shared: LineStore, at = { start: -1, end: -1 }): RepairedLine {
  const conversationOf = format.conversationOf!;
  let repaired: ReturnType<typeof repairConversation> | undefined;
  let located: LineConversation | undefined;
  const rewritten = rewriteJson(text, (value) => {
    if (conversationOf(value) === undefined) return;
    repaired = repairConversation(() => (located = conversationOf(value)!), how, shared, keepsMendedRules(rules) ? rules : undefined);
  });
  if (repaired === undefined) return { ...at, changed: false, findings: checkShapeless(0, rules) };
  const findings = repaired.findings === undefined ? checkConversation(located!, 0, rules, repaired.analysis) : placeFindings(repaired.findings, 0, located!);
  const line: RepairedLine = { ...at, changed: repaired.changed, counts: repaired.counts, findings };
  if (repaired.changed) line.bytes = Buffer.from(rewritten.text);
  return line;
}

const EOL: Record<LineEnding, string> = { lf: '\n', crlf: '\r\n', none: '' };
/** Each line ending's bytes, made once. */
const ENDINGS: Record<string, Buffer> = { '\n': Buffer.from('\n'), '\r\n': Buffer.from('\r\n') };
/** Lines a repair cannot keep: nothing in them can be read (as sessions drop them). */
const UNREADABLE = new Set(['invalid-json', 'torn', 'nul-bytes']);

/**
 * The second read: streams the file and writes every line, byte for byte unless the first read
 * found it changing. A changed line is repaired on its own to a fixed point and written back by
 * span, so every value the repair does not touch keeps its spelling. Unreadable lines go, glued
 * records get a line each, undecodable bytes become U+FFFD; the last line gets a line ending and
 * a byte order mark goes.
 */
export async function writeConversations(
  source: { path: string; transcript: Transcript; format: TranscriptFormat },
  plan: ConversationPlan,
  how: LineRepair,
  rules: readonly Rule[],
  write: (chunk: Chunk) => Promise<void>,
): Promise<WrittenConversations> {
  const { transcript, format } = source;
  if (await copiesAround(source.path, transcript, plan)) return writeSpliced(source, plan, write);
  const joiner = new SplitJoiner(splitSpans(transcript));
  const issues = new Map<number, Set<string>>();
  for (const issue of transcript.lineIssues) issues.set(issue.line, (issues.get(issue.line) ?? new Set()).add(issue.kind));
  const output: Transcript = { format: format.name, entries: new EntryStore(), lineIssues: [], bom: false, bytes: 0, lines: 0, parsedLines: 0 };
  const counts = emptyCounts();
  const lines: RepairSummary['lines'] = { dropped: [], moved: [], rewritten: [] };
  const findings: Finding[] = [];
  const shared = new LineStore();
  let pieces: Uint8Array[] = [];
  let eol = '\n';

  const put = (bytes: Uint8Array, parsed: boolean): number => {
    output.lines += 1;
    if (parsed) output.parsedLines += 1;
    const ending = ENDINGS[eol]!;
    pieces.push(bytes, ending);
    output.bytes += bytes.length + ending.length;
    output.lastLine = { line: output.lines, eol: eol === '\r\n' ? 'crlf' : 'lf', parsed };
    return output.lines;
  };
  /** A repaired line written in place of `original` (the bytes as read, absent for a line made of several). */
  const putRepaired = (done: RepairedLine, original: Buffer | undefined, text: () => string): void => {
    const line = put(done.bytes ?? original ?? Buffer.from(text()), true);
    if (done.counts !== undefined) addCounts(counts, done.counts);
    for (const finding of done.findings) findings.push({ ...finding, line });
  };
  const repair = (text: string, original: Buffer | undefined): void => putRepaired(repairLine(text, format, how, rules, shared), original, () => text);

  let writing: Promise<void> = Promise.resolve();
  const flush = async (): Promise<void> => {
    if (pieces.length === 0) return;
    const chunk = Buffer.concat(pieces);
    pieces = [];
    await writing;
    writing = write(chunk);
    writing.catch(() => undefined);
  };

  await readFileLines(
    source.path,
    (raw) => {
      const joined = joiner.take(raw.number, raw.bytes, raw.eol);
      if (joined === null) return;
      if (joined !== undefined) {
        counts.joinedRecords += 1;
        lines.rewritten.push(joined.first);
        if (raw.eol !== 'none') eol = EOL[raw.eol];
        return repair(joined.bytes.toString('utf8'), undefined);
      }
      const kinds = issues.get(raw.number);
      if (kinds !== undefined && [...kinds].some((kind) => UNREADABLE.has(kind))) {
        counts.droppedLines += 1;
        lines.dropped.push(raw.number);
        return;
      }
      if (raw.eol !== 'none') eol = EOL[raw.eol];
      if (kinds?.has('glued')) {
        counts.splitLines += 1;
        lines.rewritten.push(raw.number);
        for (const record of gluedRecords(raw.bytes, (value) => format.isRecord(value))?.records ?? []) repair(raw.bytes.toString('utf8', record.start, record.end), undefined);
      } else if (kinds?.has('invalid-utf8')) {
        counts.rewrittenEntries += 1;
        lines.rewritten.push(raw.number);
        repair(raw.bytes.toString('utf8'), undefined);
      } else if (plan.changing.has(raw.number)) {
        lines.rewritten.push(raw.number);
        const done = plan.repaired.get(raw.number);
        if (done !== undefined) putRepaired(done, raw.bytes, () => raw.bytes.toString('utf8'));
        else repair(raw.bytes.toString('utf8'), raw.bytes);
      } else {
        const line = put(raw.bytes, raw.bytes.length > 0);
        for (const finding of plan.findings.get(raw.number) ?? []) findings.push({ ...finding, line });
      }
    },
    { afterChunk: flush },
  );
  await flush();
  await writing;
  output.entries.trim();
  return { output, findings, counts, lines };
}
