import { compactionOf } from '../../formats/compactions.js';
import type { FormatCompaction, ToolUse } from '../../formats/compaction.js';
import type { Analysis } from '../../model/analysis.js';
import { ASSISTANT } from '../../model/entry-bits.js';
import { replayedEntries } from './plan.js';

/** A prompt longer than this keeps its head and tail: a pasted log would otherwise be the summary. */
const PROMPT_LIMIT = 8000;
/** What all prompts together take at most, by clipping each harder (never under PROMPT_FLOOR): a session of thousands of prompts keeps every one, as far as the summary's room allows. */
const PROMPTS_BUDGET = 120_000;
const PROMPT_FLOOR = 400;
/** The least room the prompts get, however little the summary's room leaves them: the first and the latest always stay. */
const PROMPTS_ROOM_FLOOR = 8000;
/** What a listed prompt adds to its text: its number and the line break. */
const ITEM_OVERHEAD = 8;
const ANSWER_LIMIT = 4000;
const EARLIER_LIMIT = 20_000;
/** Files and commands named, at most, so a thousand-call session still gives a short list. */
const LIST_LIMIT = 200;

/** Tools that change a file, by the names the agents give them (lower case, without separators). */
const CHANGING = /^(applypatch|edit|write|multiedit|notebookedit|applypatch|create|createfile|editfile|writefile|replace|strreplace|strreplacebasededittool|insert|patch|writetofile|strreplaceeditor)$/;
/** Tools that read a file. */
const READING = /^(read|readfile|view|cat|readmanyfiles|open|glob|grep|ls|listdirectory|searchfiles|findfiles)$/;

/** What the compacted entries said, gathered for a summary. */
export interface SessionFacts {
  prompts: string[];
  /** Prompts the room left out of the middle of the list (see fitPrompts): after which one, and how many. */
  leftOut?: { after: number; count: number };
  changed: Set<string>;
  readFiles: Set<string>;
  commands: Set<string>;
  answer?: string;
  /** The summary an earlier compaction on the path left. */
  earlier?: string;
}

/**
 * A summary of the replayed entries before `upTo` (a position on `analysis.replay`), written
 * without a model: every prompt the person typed, the files read and changed and the commands run,
 * and the last answer. `read` gives an entry's parsed line (see withParsedLines). `room` is what
 * the summary may take, in characters: when every prompt clipped to PROMPT_FLOOR does not fit in
 * it, the list keeps the first and the latest ones and says how many between them are left out
 * (a summary over the target would only be compacted again, its prompts clipped harder still).
 */
export function summarizeLocally(analysis: Analysis, upTo: number, read: (entry: number) => unknown, room = Infinity): string {
  const facts = sessionFacts(analysis, upTo, read);
  const parts = ['This session was compacted by transcript-doctor without a model: the summary below covers the earlier portion of the conversation. The full history is in the backup of this file.'];
  if (facts.earlier !== undefined) parts.push(`What an earlier compaction summarised:\n${clip(facts.earlier, EARLIER_LIMIT)}`);
  const rest = [section('Files changed', listed(facts.changed)), section('Files read', listed(facts.readFiles)), section('Commands run', listed(facts.commands))];
  if (facts.answer !== undefined) rest.push(`The last answer before this point:\n${clip(facts.answer, ANSWER_LIMIT)}`);
  const taken = [...parts, ...rest].reduce((total, part) => total + part.length + 2, 0);
  fitPrompts(facts, Math.max(PROMPTS_ROOM_FLOOR, room - taken));
  return [...parts, promptList(facts), ...rest].filter((part) => part !== '').join('\n\n');
}

/** Every prompt, numbered, in order ('' when there is none). */
export function promptList(facts: SessionFacts): string {
  const { leftOut } = facts;
  const items = facts.prompts.map((prompt, n) => `${leftOut !== undefined && n >= leftOut.after ? n + leftOut.count + 1 : n + 1}. ${prompt}`);
  if (leftOut !== undefined) items.splice(leftOut.after, 0, `(${leftOut.count.toLocaleString('en-US')} requests between these are left out for room; the backup holds them)`);
  return section('Every request the user made, in order', items);
}

/** Keeps the first and the latest prompts that fit in `room` characters, and notes the ones between them. */
function fitPrompts(facts: SessionFacts, room: number): void {
  const { prompts } = facts;
  if (prompts.reduce((total, prompt) => total + prompt.length + ITEM_OVERHEAD, 0) <= room) return;
  let head = 0;
  let tail = prompts.length;
  let used = 0;
  // Alternately from each end, so the session's start and its latest requests both stay.
  for (let fromHead = true; head < tail; fromHead = !fromHead) {
    const next = prompts[fromHead ? head : tail - 1]!.length + ITEM_OVERHEAD;
    if (used + next > room) break;
    used += next;
    if (fromHead) head++;
    else tail--;
  }
  facts.leftOut = { after: head, count: tail - head };
  facts.prompts = [...prompts.slice(0, head), ...prompts.slice(tail)];
}

export function sessionFacts(analysis: Analysis, upTo: number, read: (entry: number) => unknown): SessionFacts {
  const format = compactionOf(analysis.transcript.format);
  const entries = replayedEntries(analysis, read);
  const facts: SessionFacts = { prompts: [], changed: new Set(), readFiles: new Set(), commands: new Set() };
  const end = Math.min(upTo, entries.length);
  const last = format !== undefined && format.factsAt === undefined ? lastAnswer(format, analysis, entries, end, read) : undefined;
  for (let at = 0; at < end; at++) {
    if (format?.factsAt === undefined && format?.silent?.(analysis.entries, entries[at]!) === true) continue;
    // Of the replies that call nothing, only the last one's answer is kept: the others are not read.
    if (last !== undefined && answersOnly(analysis, entries[at]!)) {
      if (at === last.at) facts.answer = last.answer;
      continue;
    }
    const line = format?.factsAt !== undefined ? format.factsAt(analysis, at, read) : format?.facts(read(entries[at]!));
    if (line === undefined) continue;
    if (line.summary !== undefined && line.summary.trim() !== '') facts.earlier = line.summary.trim();
    // Only what the model calls a prompt: not the context an agent writes as a user message (Codex's environment).
    if (line.prompt !== undefined && line.prompt.trim() !== '' && (format?.replayed !== undefined || analysis.entries.at(entries[at]!).role === 'user')) facts.prompts.push(line.prompt.trim());
    if (line.answer !== undefined && line.answer.trim() !== '') facts.answer = line.answer.trim();
    for (const call of line.calls) noteCall(call, facts);
  }
  for (const path of facts.changed) facts.readFiles.delete(path);
  const limit = Math.max(PROMPT_FLOOR, Math.min(PROMPT_LIMIT, Math.floor(PROMPTS_BUDGET / Math.max(1, facts.prompts.length))));
  facts.prompts = facts.prompts.map((prompt) => clip(prompt, limit));
  return facts;
}

/** An assistant message with no call: all it can give the summary is its answer. */
function answersOnly(analysis: Analysis, entry: number): boolean {
  const store = analysis.entries;
  return store.roleCode(entry) === ASSISTANT && !store.hasCalls(entry) && store.kind(entry) === 'message';
}

/**
 * The last reply before `end` that calls nothing and answers something, and its answer, read from
 * the end (at -1: none): the replies of a long session that call nothing are a third of its bytes.
 */
function lastAnswer(format: FormatCompaction, analysis: Analysis, entries: ArrayLike<number>, end: number, read: (entry: number) => unknown): { at: number; answer: string } {
  for (let at = end - 1; at >= 0; at--) {
    if (!answersOnly(analysis, entries[at]!)) continue;
    const answer = format.facts(read(entries[at]!)).answer?.trim();
    if (answer) return { at, answer };
  }
  return { at: -1, answer: '' };
}

function noteCall(call: ToolUse, facts: SessionFacts): void {
  const name = call.name.toLowerCase().replace(/[^a-z]/g, '');
  if (call.command !== undefined) facts.commands.add(oneLine(call.command));
  if (call.path === undefined) return;
  if (CHANGING.test(name)) facts.changed.add(call.path);
  else if (READING.test(name)) facts.readFiles.add(call.path);
}

function section(title: string, items: string[]): string {
  return items.length === 0 ? '' : `${title}:\n${items.join('\n')}`;
}

function listed(items: Set<string>): string[] {
  const all = [...items];
  const shown = all.slice(-LIST_LIMIT).map((item) => `- ${item}`);
  if (all.length > LIST_LIMIT) shown.unshift(`- (${all.length - LIST_LIMIT} earlier ones not listed)`);
  return shown;
}

function oneLine(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Head and tail of a long text, saying how much was left out between them. */
export function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters left out …]\n${text.slice(-half)}`;
}
