import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { spoolStdin } from '../io/spool.js';
import { UserError } from '../errors.js';
import type { TranscriptFormat } from '../formats/format.js';
import { documentFormat, formats } from '../formats/registry.js';
import { AtomicFile, assertNotLocked, beginInPlace, type SourceStamp } from '../io/safe-write.js';
import { withReadablePath } from '../io/regular-file.js';
import { DEFAULT_KEEP_BACKUPS } from '../io/backups.js';
import { analyze, type Analysis } from '../model/analysis.js';
import type { Transcript } from '../model/transcript.js';
import { addCounts, emptyCounts, emptyPlan, isEmptyPlan, type RepairMode, type RepairPlan } from '../repair/plan.js';
import { planRepair } from '../repair/planner.js';
import { keepsMendedRules, leavesNothingToMend, rules, shapeRules } from '../rules/index.js';
import type { Rule } from '../rules/rule.js';
import { planCanonical } from '../repair/canonical.js';
import type { FileReport, Finding, RepairSummary } from './finding.js';
import { loadTranscriptFile } from './load-file.js';
import { loadCheckpointed } from './load-checkpointed.js';
import type { CheckpointPlace } from '../cache/checkpoint-file.js';
import { attempt, settle, type Destination, type Sink } from './passes.js';
import { loadDocument, loadTranscript } from './load-transcript.js';
import { rewriteJson } from '../json/rewrite.js';
import { missingToolResultName } from '../rules/pairing/missing-tool-result-name.js';
import { invalidJson } from '../rules/syntax/invalid-json.js';
import { runRules } from './run-rules.js';
import type { ProviderId } from '../providers/provider-id.js';
import { withConversationFindings } from './conversation.js';
import type { ConversationPlan } from './conversation-plan.js';
import { planConversations, writeConversations } from './rewrite-conversations.js';

/** Where a repaired transcript goes. */
export type Target =
  /** keepBackups: how many backups of the file to keep (default DEFAULT_KEEP_BACKUPS). */
  | { kind: 'in-place'; backup: boolean; force: boolean; keepBackups?: number }
  | { kind: 'file'; path: string }
  | { kind: 'stream'; stream: Writable }
  | { kind: 'dry-run' };

export type RepairReport = FileReport & { repair: RepairSummary };

/** Plans the edits for one transcript; `display` is the path as the user gave it, `file` where its bytes are (if written yet). */
export type Planner = (transcript: Transcript, display: string, file?: string) => RepairPlan;

export interface Rewrite {
  plan: Planner;
  /** The rules whose findings are reported as left in the output. */
  rules: readonly Rule[];
  /** Also drop a byte order mark and end the last line: a repair does, canonicalize keeps bytes it is not asked about. */
  fixEndings: boolean;
  /** The provider every transcript is judged and repaired against (`--provider`). */
  provider?: ProviderId;
  /** What to tell the user when the format never gives this rewrite anything to do. */
  noteFor?: (format: TranscriptFormat) => string | undefined;
  /** For files of conversations (requests, datasets), which are repaired line by line: how to answer unanswered calls. */
  mode?: RepairMode;
  /** The transcript format of every file (`--agent`), instead of detecting it. */
  format?: TranscriptFormat;
  /** Refuse, writing nothing, a file not detected as this format (a hook acts only on its own agent's sessions). */
  onlyFormat?: string;
  /**
   * A pass's output is planned again only when a rule of mendedRuleIds finds something in it.
   * Where none does, the repair plan is empty (test/pipeline/judge-first-sessions.test.ts holds it
   * over every session fixture), and what the rules found is the report.
   */
  judgesFirst?: boolean;
  /**
   * Runs before a file's first plan, for what only an await can give the (synchronous) planner:
   * `slim --summarize` asks a model for the summary here. A throw writes nothing.
   */
  prepare?: (transcript: Transcript, display: string, file: string) => Promise<void>;
  /** Adds what the planner learned to a file's report once it is rewritten (slim's sizes and strategies). */
  finish?: (report: RepairReport) => void;
  /**
   * Where a file seen before may be read on from (the scan cache's checkpoints): only to find
   * that there is nothing to write; a file that needs writing is read again whole.
   */
  checkpoints?: CheckpointPlace;
}

export function repairRewrite(mode: RepairMode): Rewrite {
  return { plan: (transcript, display, file) => planRepair(transcript, { mode, sessionId: sessionIdOf(display), file }), rules, fixEndings: true, mode, judgesFirst: true };
}

export const canonicalRewrite: Rewrite = {
  plan: planCanonical,
  rules: shapeRules,
  fixEndings: false,
  noteFor: (format) => (format.nothingToCanonicalize === undefined ? undefined : `nothing to canonicalize for ${format.name}: ${format.nothingToCanonicalize}`),
};

/** Rewrites one file (or standard input, spooled to a temp file so it can be read twice). */
export async function rewriteInput(path: string, stdin: Readable | undefined, rewrite: Rewrite, target: Target): Promise<RepairReport> {
  if (stdin === undefined) return rewriteFile(path, path, rewrite, target);
  return spoolStdin(stdin, (spool) => rewriteFile(spool, '-', rewrite, target));
}

async function rewriteFile(source: string, display: string, rewrite: Rewrite, target: Target): Promise<RepairReport> {
  const stamp = target.kind === 'in-place' ? await beginInPlace(source, target.force) : undefined;
  // `source` is where the result goes in place; `reading` is a path the readers can open (see withReadablePath).
  return withReadablePath(source, (reading) => rewriteRead(source, reading, display, stamp, rewrite, target));
}

async function rewriteRead(source: string, reading: string, display: string, stamp: SourceStamp | undefined, rewrite: Rewrite, target: Target): Promise<RepairReport> {
  // Lines that are conversations of their own are planned as they are read; session files ignore this.
  const lines = rewrite.mode === undefined ? undefined : planConversations({ mode: rewrite.mode, provider: rewrite.provider }, rewrite.rules);
  const { transcript, resumed } = await loadCheckpointed(reading, rewrite.format, true, lines, rewrite.checkpoints);
  if (rewrite.onlyFormat !== undefined && transcript.format !== rewrite.onlyFormat) {
    throw new UserError(`${display} is ${transcript.format === undefined ? 'in no format this tool reads' : `a ${transcript.format} transcript`}, not ${rewrite.onlyFormat}; nothing was written`);
  }
  transcript.provider = rewrite.provider;
  const format = formats.find((candidate) => candidate.name === transcript.format);
  if (lines !== undefined && format?.conversationOf !== undefined) return rewriteConversationFile({ source, reading, display, stamp, transcript, format, lines, rewrite, target });
  if (format !== undefined && documentFormat(reading, format) !== undefined) return rewriteDocument({ source, reading, display, stamp, transcript, format, rewrite, target });
  await rewrite.prepare?.(transcript, display, reading);
  // A session read on from a checkpoint was seen before, and is most likely clean: judged first, as an output is (see replan).
  const judgedClean = resumed && rewrite.judgesFirst === true && keepsMendedRules(rewrite.rules) ? judgedFindings(transcript, rewrite) : undefined;
  const plan = judgedClean !== undefined ? emptyPlan() : rewrite.plan(transcript, display, reading);
  const tooLong = transcript.lineIssues.find((issue) => issue.kind === 'oversized' && !plan.skip.has(issue.line));
  if (tooLong !== undefined) throw new UserError(`${display}: line ${tooLong.line} is too long to copy; nothing was written`);
  const endings = rewrite.fixEndings && (transcript.bom || transcript.lastLine?.eol === 'none');
  const changed = format !== undefined && (!isEmptyPlan(plan) || endings);
  // What is written is planned on the file as it is read now, never on a checkpoint of it.
  if (changed && resumed) return rewriteRead(source, reading, display, stamp, { ...rewrite, checkpoints: undefined }, target);
  const summary: RepairSummary = { changed, counts: plan.counts, lines: describeLines(plan) };
  const note = format === undefined ? undefined : rewrite.noteFor?.(format);
  if (note !== undefined) summary.note = note;
  const report: RepairReport = { path: display, format: transcript.format ?? null, findings: [], repair: summary };

  if (!changed) {
    // The analysis the plan was made from, when it kept one (as judge does below): a second one of a big file is a second set of its paths in memory.
    report.findings = judgedClean ?? runRules(plan.analysis ?? analyze(transcript), rewrite.rules);
    if (target.kind === 'stream') await pipeline(createReadStream(reading), target.stream, { end: false });
    if (target.kind === 'file') await copyTo(reading, await outputFile(target.path, reading, display));
    if (target.kind === 'file' || target.kind === 'stream') summary.output = target.kind === 'file' ? target.path : '-';
    return report;
  }

  // Judging an output costs a fraction of planning it (40 against 130 ms on 128 MiB of pi), and most outputs are final.
  const judgesFirst = rewrite.judgesFirst === true && keepsMendedRules(rewrite.rules);
  const judged = new WeakMap<Analysis, Finding[]>();
  const replan = (output: Transcript, file: string | undefined, after: RepairPlan): RepairPlan => {
    output.provider = rewrite.provider;
    // After a partial plan the rest is still to plan, whatever the rules say.
    if (judgesFirst && after.partial !== true) {
      const analysis = analyze(output);
      const findings = runRules(analysis, rewrite.rules);
      if (leavesNothingToMend(findings)) {
        judged.set(analysis, findings);
        return Object.assign(emptyPlan(), { analysis });
      }
    }
    return rewrite.plan(output, display, file);
  };
  // What is left in the output, judged from the analysis its last plan made when there is one.
  const judge = (output: Transcript, analysis: Analysis | undefined): RepairReport => {
    output.provider = rewrite.provider;
    const found = analysis === undefined ? undefined : judged.get(analysis);
    report.findings = found ?? runRules(analysis ?? analyze(output), rewrite.rules);
    return report;
  };
  return settle({ path: reading, transcript, plan }, format!, replan, rewrite.fixEndings, destination(target, judge, { source, display, stamp, summary }));
}

/** What the rules find in a transcript, when none of it is for a repair to mend (see leavesNothingToMend); undefined otherwise. */
function judgedFindings(transcript: Transcript, rewrite: Rewrite): Finding[] | undefined {
  transcript.provider = rewrite.provider;
  const findings = runRules(analyze(transcript), rewrite.rules);
  return leavesNothingToMend(findings) ? findings : undefined;
}

/** A file read once, with what rewriting it needs. */
interface OpenedFile {
  source: string;
  reading: string;
  display: string;
  stamp: SourceStamp | undefined;
  transcript: Transcript;
  format: TranscriptFormat;
  rewrite: Rewrite;
  target: Target;
}

/**
 * A file that is one JSON document (see TranscriptFormat.readsWholeDocument): edited by span in
 * memory, planned again until nothing is left to change, and written once. A document that does
 * not parse is left as it is: there is no line to drop, only the whole file.
 */
async function rewriteDocument(file: OpenedFile): Promise<RepairReport> {
  const { source, reading, display, stamp, format, rewrite, target } = file;
  const original = await readFile(reading);
  const bom = file.transcript.bom ? original.subarray(0, 3) : Buffer.alloc(0);
  let text = original.subarray(bom.length).toString('utf8');
  let transcript = file.transcript;
  const counts = emptyCounts();
  const rewritten = new Set<number>();
  for (let pass = 0; pass < MAX_DOCUMENT_PASSES && transcript.lineIssues.length === 0; pass++) {
    transcript.provider = rewrite.provider;
    const plan = rewrite.plan(transcript, display);
    const edits = plan.edits.get(1);
    if (edits === undefined) break;
    text = rewriteJson(text, (value) => format.encoder.apply(value, edits)).text;
    addCounts(counts, plan.counts);
    rewritten.add(1);
    transcript = loadDocument(Buffer.concat([bom, Buffer.from(text)]), format, reading);
  }
  const output = Buffer.concat([bom, Buffer.from(text)]);
  const changed = !output.equals(original);
  const summary: RepairSummary = { changed, counts, lines: { dropped: [], moved: [], rewritten: [...rewritten] } };
  const report: RepairReport = { path: display, format: format.name, findings: [], repair: summary };
  const judge = (judged: Transcript): RepairReport => {
    judged.provider = rewrite.provider;
    report.findings = runRules(analyze(judged), rewrite.rules);
    return report;
  };
  if (!changed) {
    judge(transcript);
    if (target.kind === 'stream') await pipeline(createReadStream(reading), target.stream, { end: false });
    if (target.kind === 'file') await copyTo(reading, await outputFile(target.path, reading, display));
    if (target.kind === 'file' || target.kind === 'stream') summary.output = target.kind === 'file' ? target.path : '-';
    return report;
  }
  const sink = await destination(target, judge, { source, display, stamp, summary }).open();
  await attempt(sink, () => sink.write(output));
  await sink.flush?.();
  return sink.keep(transcript);
}

/** A planner that still finds work in a document after this many passes has a bug; stop rather than loop. */
const MAX_DOCUMENT_PASSES = 5;

/**
 * A file of conversations: one more read writes every line, repairing the lines the first read
 * found changing (see rewrite-conversations.ts). Nothing changing: the file is copied as it is.
 */
async function rewriteConversationFile(file: OpenedFile & { lines: ConversationPlan }): Promise<RepairReport> {
  const { source, reading, display, stamp, transcript, format, lines, rewrite, target } = file;
  const tooLong = transcript.lineIssues.find((issue) => issue.kind === 'oversized');
  if (tooLong !== undefined) throw new UserError(`${display}: line ${tooLong.line} is too long to copy; nothing was written`);
  const changed = lines.changing.size > 0 || transcript.lineIssues.length > 0 || transcript.bom || transcript.lastLine?.eol === 'none';
  const summary: RepairSummary = { changed, counts: emptyCounts(), lines: { dropped: [], moved: [], rewritten: [] } };
  const report: RepairReport = { path: display, format: format.name, findings: [], repair: summary };
  if (!changed) {
    report.findings = withConversationFindings(runRules(analyze(transcript), rewrite.rules), [...lines.findings.values()].flat());
    if (target.kind === 'stream') await pipeline(createReadStream(reading), target.stream, { end: false });
    if (target.kind === 'file') await copyTo(reading, await outputFile(target.path, reading, display));
    if (target.kind === 'file' || target.kind === 'stream') summary.output = target.kind === 'file' ? target.path : '-';
    return report;
  }
  let left: Finding[] = [];
  const judge = (output: Transcript): RepairReport => {
    report.findings = withConversationFindings(runRules(analyze(output), rewrite.rules), left);
    return report;
  };
  const sink = await destination(target, judge, { source, display, stamp, summary }).open();
  const written = await attempt(sink, () => writeConversations({ path: reading, transcript, format }, lines, { mode: rewrite.mode!, provider: rewrite.provider }, rewrite.rules, sink.write));
  left = written.findings;
  summary.counts = written.counts;
  summary.lines = written.lines;
  await sink.flush?.();
  return sink.keep(written.output);
}

/** The user's target as a place for the last pass: `judge` reports on the model of what was written. */
function destination(
  target: Target,
  judge: (output: Transcript, analysis: Analysis | undefined) => RepairReport,
  { source, display, stamp, summary }: { source: string; display: string; stamp: SourceStamp | undefined; summary: RepairSummary },
): Destination<RepairReport> {
  if (target.kind === 'dry-run') {
    return { rewindable: true, open: async () => ({ write: async () => {}, modelOnly: true, keep: async (output, plan) => judge(output, plan?.analysis), discard: async () => {} }) };
  }
  if (target.kind === 'stream') {
    const sink: Sink<RepairReport> = {
      // A copy: the caller's stream may hold on to what it is given, and the writer reuses its chunks.
      write: (chunk) => writeTo(target.stream, Buffer.isBuffer(chunk) ? Buffer.from(chunk) : Buffer.concat(chunk)),
      keep: async (output, plan) => {
        summary.output = '-';
        return judge(output, plan?.analysis);
      },
      discard: async () => {},
    };
    return { rewindable: false, open: async () => sink };
  }
  return {
    rewindable: true,
    async open() {
      const file = target.kind === 'file' ? await outputFile(target.path, source, display) : await AtomicFile.create(source, { sizeHint: stamp?.size });
      return {
        write: (chunk) => file.write(chunk),
        flush: () => file.flushEarly(),
        readBack: () => file.readBack(),
        async keep(output, plan) {
          // Judged first: the rules run while the fsync flushEarly started is still going.
          const judged = judge(output, plan?.analysis);
          try {
            const { backupPath, prunedBackups } = await file.commit(
              target.kind === 'in-place'
                ? { backup: target.backup, keepBackups: target.keepBackups ?? DEFAULT_KEEP_BACKUPS, expected: stamp, lastCheck: () => assertNotLocked(source, target.force) }
                : { backup: false },
            );
            if (backupPath !== undefined) summary.backupPath = backupPath;
            if (prunedBackups !== undefined && prunedBackups.length > 0) summary.prunedBackups = prunedBackups;
          } catch (error) {
            await file.discard();
            throw error;
          }
          summary.output = target.kind === 'file' ? target.path : display;
          return judged;
        },
        discard: () => file.discard(),
      };
    },
  };
}

/** `-o` never writes through a symlink, and keeps the source's mode (standard input has none). */
async function outputFile(path: string, source: string, display: string): Promise<AtomicFile> {
  const { mode, size } = await stat(source);
  return AtomicFile.create(path, { followLinks: false, mode: display === '-' ? undefined : mode, sizeHint: size });
}

async function copyTo(source: string, file: AtomicFile): Promise<void> {
  try {
    for await (const chunk of createReadStream(source)) await file.write(chunk as Buffer);
    await file.commit({ backup: false });
  } catch (error) {
    await file.discard();
    throw error;
  }
}

/**
 * One chunk to a caller's stream. A stream can end without calling back (destroyed mid-write, or
 * closed by its other end): its 'close' and 'error' settle the write too, so a run never hangs.
 */
function writeTo(stream: Writable, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.destroyed || stream.writableEnded) {
      reject(new Error('the output stream was closed before the transcript was written'));
      return;
    }
    const settle = (error?: Error | null) => {
      stream.off('error', settle);
      stream.off('close', closed);
      if (error) reject(error);
      else resolve();
    };
    const closed = () => settle(new Error('the output stream closed before the transcript was written'));
    stream.on('error', settle);
    stream.on('close', closed);
    stream.write(chunk, settle);
  });
}

function describeLines(plan: RepairPlan): RepairSummary['lines'] {
  const moved = new Set<number>();
  for (const list of plan.after.values()) for (const placement of list) if (placement.kind === 'move') moved.add(placement.line);
  return {
    dropped: [...plan.skip].filter((line) => !moved.has(line)).sort((a, b) => a - b),
    moved: [...moved].sort((a, b) => a - b),
    rewritten: [...plan.edits.keys(), ...plan.split].sort((a, b) => a - b),
  };
}

/**
 * The session id a rebuilt header gets: OpenClaw names files `<sessionId>.jsonl` (plus
 * `-topic-<thread>`), pi `<timestamp>_<sessionId>.jsonl`, Copilot CLI the folder
 * (`<sessionId>/events.jsonl`). Standard input gets a fresh id.
 */
function sessionIdOf(path: string): string {
  if (path === '-') return randomUUID();
  if (basename(path) === 'events.jsonl' && basename(dirname(path)) !== '') return basename(dirname(path));
  const stem = basename(path).replace(/\.jsonl.*$/, '').replace(/-topic-.*$/, '');
  return stem.slice(stem.lastIndexOf('_') + 1) || randomUUID();
}

/**
 * `canonicalize --check`: the lines canonicalize would change, as findings (rule, line,
 * pointer, what would change), plus the shapes it cannot settle. Writes nothing.
 */
export async function checkCanonical(path: string, stdin: Readable | undefined, format?: TranscriptFormat): Promise<FileReport> {
  const transcript = stdin === undefined ? await withReadablePath(path, (reading) => loadTranscriptFile(reading, format)) : await loadTranscript(stdin, format);
  const plan = planCanonical(transcript);
  // A line too long to parse cannot be copied either, so canonicalize would fail on it: say so here.
  const tooLong = new Set(transcript.lineIssues.filter((issue) => issue.kind === 'oversized').map((issue) => issue.line));
  const findings = runRules(analyze(transcript), [...shapeRules, missingToolResultName, invalidJson]).filter((finding) =>
    finding.rule === invalidJson.meta.id ? tooLong.has(finding.line) : finding.rule !== missingToolResultName.meta.id || plan.edits.has(finding.line),
  );
  return { path: stdin === undefined ? path : '-', format: transcript.format ?? null, findings };
}
