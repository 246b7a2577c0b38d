import type { LineConversation } from '../formats/format.js';
import { EntryStore } from '../model/entry-store.js';
import type { Transcript } from '../model/transcript.js';
import { applyToItems } from '../repair/apply-items.js';
import { addCounts, emptyCounts, isEmptyPlan, type RepairCounts, type RepairPlan } from '../repair/plan.js';
import { planRepair } from '../repair/planner.js';
import type { Rule } from '../rules/rule.js';
import { leavesNothingToMend } from '../rules/index.js';
import type { ProviderId } from '../providers/provider-id.js';
import { analyze, type Analysis } from '../model/analysis.js';
import type { Finding } from './finding.js';
import type { ConversationSink } from './load-transcript.js';
import { lineJob, shifted, type LineRepair, type LineWork } from './line-work.js';
import { runRules } from './run-rules.js';

/** The format whose lines are conversations; its name is what the mini transcripts report. */
const FORMAT = 'requests';

/** A repair that still finds work after this many passes over one line has a planner bug; stop rather than loop. */
const MAX_PASSES = 5;

/** Past this many ids or strings (call ids), the store the lines of a file share starts afresh. */
const SHARED_LIMIT = 1 << 14;
const CALL_LIMIT = 256;

/**
 * The store the conversations of one file take turns in, and its id and string tables: every line
 * names its items `#0`, `#1`, … and its blocks by the same few pointers, so the tables stay small,
 * and a line spares the allocation of columns and tables. Call ids differ from line to line: the
 * pairing sizes arrays by their table, so they are forgotten once it holds a few hundred.
 */
export class LineStore {
  // Made at the first line: every session file passes through here without using it.
  private store: EntryStore | undefined;

  /** An empty store for the next line; the previous line's transcript is done with. */
  forLine(): EntryStore {
    const store = this.store;
    if (store === undefined || store.ids.count > SHARED_LIMIT || store.strings.size > SHARED_LIMIT) {
      return (this.store = new EntryStore());
    }
    store.clear();
    if (store.callIds.count > CALL_LIMIT) store.callIds.clear();
    return store;
  }
}

/**
 * One line's conversation as a transcript of its own: item i is entry i on "line" i + 1, linked
 * to the item before it. It lives only while that line is judged or repaired, so a file of any
 * number of conversations costs the memory of its largest one.
 */
export function conversationTranscript(conversation: LineConversation, shared?: LineStore, provider?: ProviderId): Transcript {
  const entries = shared?.forLine() ?? new EntryStore();
  const items = conversation.items;
  entries.reserve(items.length);
  const decoder = conversation.createDecoder();
  // Not trimmed: the store serves one line after another, and trimming would drop its id index.
  for (let i = 0; i < items.length; i++) entries.push(decoder.decode(items[i], i + 1, i));
  return {
    format: FORMAT,
    provider,
    semantics: conversation.semantics,
    entries,
    lineIssues: [],
    bom: false,
    bytes: 0,
    lines: items.length,
    parsedLines: items.length,
    conversation: { provider: conversation.provider },
  };
}

/** The findings of a line that holds no conversation the format knows: whatever rules say of such a line. */
export function checkShapeless(line: number, rules: readonly Rule[]): Finding[] {
  const transcript: Transcript = { format: FORMAT, entries: new EntryStore(), lineIssues: [], bom: false, bytes: 0, lines: 1, parsedLines: 1, conversation: null };
  return runRules(analyze(transcript), rules).map((finding) => ({ ...finding, line }));
}

/** The findings of one conversation, placed on its line of the file (see rebase). */
export function checkConversation(conversation: LineConversation, line: number, rules: readonly Rule[], analysis?: Analysis, shared?: LineStore, provider?: ProviderId): Finding[] {
  return placeFindings(runRules(analysis ?? analyze(conversationTranscript(conversation, shared, provider)), rules), line, conversation);
}

/** Findings about a conversation's mini transcript, placed on its line of the file. */
export function placeFindings(findings: readonly Finding[], line: number, conversation: LineConversation): Finding[] {
  return findings.map((finding) => rebase(finding, line, conversation.pointer));
}

/**
 * A finding about item k (on the mini transcript's line k + 1) as a finding about the file's
 * line: the pointer names the item when the rule named the whole "line", and lines the message
 * mentions become the items' pointers.
 */
function rebase(finding: Finding, line: number, list: string): Finding {
  const item = (n: number) => `${list}/${n - 1}`;
  return {
    ...finding,
    line,
    pointer: finding.pointer === '' ? item(finding.line) : finding.pointer,
    message: finding.message.replace(/\bon line (\d+)/g, (_, n: string) => `at ${item(Number(n))}`).replace(/\bline (\d+)/g, (_, n: string) => item(Number(n))),
  };
}

/** What repairing one line did: its counts, and the analysis of the conversation as it now stands. */
export interface ConversationRepair {
  changed: boolean;
  counts: RepairCounts;
  /** The analysis the last, empty plan was made from, or that the last judging was. */
  analysis: Analysis;
  /** What the rules found in the repaired conversation, when judging stood in for its last plan (not yet placed on a line). */
  findings?: Finding[];
}

/** The time a created item falls back to: request shapes carry no times, and a fixed one keeps two runs byte-identical. */
const NO_TIME = new Date(0);

/**
 * Repairs one line's conversation in place (through `locate`, which finds it again in the
 * edited line) until its plan is empty, so a second repair finds nothing. Pair-atomic, as for
 * sessions: the same planner, with the items as its lines. With `judge` (rules that keep every
 * rule a repair mends: keepsMendedRules), a repaired conversation is judged before it is planned
 * again, and no finding of those rules stands for an empty plan, as it does for a line read
 * (planning costs about three times judging, and the findings are wanted anyway).
 */
export function repairConversation(locate: () => LineConversation, how: LineRepair, shared?: LineStore, judge?: readonly Rule[]): ConversationRepair {
  const counts = emptyCounts();
  let changed = false;
  for (let pass = 1; ; pass++) {
    const conversation = locate();
    if (changed && judge !== undefined) {
      const analysis = analyze(conversationTranscript(conversation, shared, how.provider));
      const findings = runRules(analysis, judge);
      if (leavesNothingToMend(findings)) return { changed, counts, analysis, findings };
    }
    const plan = planConversation(conversation, how, shared);
    if (isEmptyPlan(plan) || pass > MAX_PASSES) return { changed, counts, analysis: plan.analysis ?? analyze(conversationTranscript(conversation, shared, how.provider)) };
    addCounts(counts, plan.counts);
    conversation.replace(applyToItems(conversation.items, plan, conversation.encoder, NO_TIME));
    changed = true;
  }
}

export function planConversation(conversation: LineConversation, how: LineRepair, shared?: LineStore): RepairPlan {
  // No session id: a request has no header to rebuild.
  return planRepair(conversationTranscript(conversation, shared, how.provider), { mode: how.mode, sessionId: '' });
}

/**
 * Collects the findings of every conversation line a file hands it, as they are read. A line's
 * model dies young (see TreeAnalysis): forcing full collections between lines cost more than the
 * judging itself (a 100,000-line dataset: 12.6 s of CPU against 4.1 s) for no lower peak.
 */
export function conversationChecker(rules: readonly Rule[], provider?: ProviderId): LineWork & { findings: Finding[] } {
  const findings: Finding[] = [];
  const shared = new LineStore();
  const take: ConversationSink = (conversation, place) => {
    const found = conversation === undefined ? checkShapeless(place.number, rules) : checkConversation(conversation, place.number, rules, undefined, shared, provider);
    for (const finding of found) findings.push(finding);
  };
  return {
    take,
    findings,
    job: lineJob(rules, provider),
    // One at a time: a spread of a few hundred thousand findings would overflow the call stack.
    merge: (found, lines) => {
      for (const finding of shifted(found, lines).findings) findings.push(finding);
    },
    results: () => ({ findings, changing: [] }),
  };
}

/** The file's own findings (bytes, line endings) and its lines' findings, in line order. */
export function withConversationFindings(file: Finding[], lines: readonly Finding[]): Finding[] {
  if (lines.length === 0) return file;
  return [...file, ...lines].sort((a, b) => a.line - b.line);
}
