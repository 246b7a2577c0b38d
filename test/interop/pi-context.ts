/**
 * Interop helper: load a transcript with pi's OWN session code
 * (`@mariozechner/pi-coding-agent`) and report the context pi would build from it.
 *
 * Nothing of pi's loading logic is reimplemented here. The JSONL text is written to a
 * temp file and opened with `SessionManager.open()` in a worker thread
 * (pi-context.worker.mjs, so an endless loop in pi can be cut off by a timeout); that is
 * pi's real resume path:
 *   loadEntriesFromFile()      split on "\n", skip blank and unparseable lines, and
 *                              require the first parsed entry to be a `type:"session"`
 *                              header with a string id (otherwise pi truncates the file
 *                              and starts a fresh session, i.e. an empty context)
 *   migrateToCurrentVersion()  v1 -> v2 (ids/parentIds in file order) -> v3
 *                              (`hookMessage` -> `custom`), rewriting the file
 *   _buildIndex()              leaf = last entry in file order
 *   buildSessionContext()      walk parentId from the leaf to the root, applying the
 *                              latest compaction on the path
 * and the messages are then passed through pi's `convertToLlm()` (custom /
 * bashExecution / branchSummary / compactionSummary become user messages,
 * `excludeFromContext` bash executions and unknown roles vanish) before tool pairing is
 * checked, so the pairing check sees the same message sequence pi hands to pi-ai.
 *
 * Only the pairing check is ours. It deliberately runs BEFORE pi-ai's per-request
 * `transformMessages()` (not exported by pi-ai), which would drop error/aborted assistant
 * turns and paper over unanswered calls with "No result provided" results.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  parseSessionEntries,
  type convertToLlm,
  type SessionContext,
  type SessionEntry,
  type SessionHeader,
} from '@mariozechner/pi-coding-agent';

export interface PiContextCheck {
  messages: number;
  unansweredCalls: string[];
  orphanResults: string[];
  /** Call ids used by more than one call in the request (Anthropic: `tool_use` ids must be unique). */
  duplicateCallIds: string[];
  /** Call names outside `^[a-zA-Z0-9_-]{1,64}$`, which Anthropic and OpenAI reject. */
  invalidToolNames: string[];
  roles: string[];
}

export interface PiContextOptions extends PiLoadOptions {
  /**
   * Accept the legacy / foreign shapes OpenClaw's own pairing code accepts
   * (`toolUse` and `functionCall` blocks, `toolUseId` / `tool_call_id` / … on results).
   * Default true. With false, only pi-ai's canonical `toolCall` blocks and
   * `toolResult.toolCallId` count, which is what pi-ai itself understands at replay.
   */
  aliases?: boolean;
}

type LlmMessage = ReturnType<typeof convertToLlm>[number];

export interface PiLoadedSession {
  /** What `SessionManager#buildSessionContext()` returned. */
  context: SessionContext;
  /** `convertToLlm(context.messages)`: the list pi hands to the agent loop / pi-ai. */
  llmMessages: LlmMessage[];
  /** The header pi kept (after migration). */
  header: SessionHeader | null;
  /** All non-header entries pi holds (after migration). */
  entries: SessionEntry[];
  /** The leaf pi resumes from (last entry in file order). */
  leafId: string | null;
  /**
   * True when pi threw the transcript away: the input had parseable lines but pi's loader
   * rejected the header, so it truncated the file and started a new, empty session.
   */
  discarded: boolean;
  /** The file content pi left behind (differs from the input after a migration or a discard). */
  fileAfterLoad: string;
}

export interface PiLoadOptions {
  /**
   * Give up (and terminate pi's worker) after this many ms. pi's context walk loops forever
   * on a parentId cycle, so without this a cyclic transcript would hang the test run.
   * Default 10 000.
   */
  timeoutMs?: number;
}

type WorkerResult = Pick<PiLoadedSession, 'context' | 'llmMessages' | 'header' | 'entries' | 'leafId'>;
interface Pending {
  resolve: (r: WorkerResult) => void;
  reject: (e: Error) => void;
}

/** One reusable worker that has pi loaded (importing pi costs ~0.5 s); replaced after a timeout. */
interface PiWorker {
  worker: Worker;
  pending: Map<number, Pending>;
}
let current: PiWorker | null = null;
let nextReqId = 0;

function getWorker(): PiWorker {
  if (current) return current;
  const w: PiWorker = { worker: new Worker(new URL('./pi-context.worker.mjs', import.meta.url)), pending: new Map() };
  const failAll = (err: Error) => {
    if (current === w) current = null;
    for (const p of w.pending.values()) p.reject(err);
    w.pending.clear();
  };
  w.worker.unref(); // never keep the test process alive
  w.worker.on('message', (msg: { reqId: number; ok: boolean; result?: WorkerResult; error?: string }) => {
    const p = w.pending.get(msg.reqId);
    if (!p) return;
    w.pending.delete(msg.reqId);
    if (msg.ok) p.resolve(msg.result as WorkerResult);
    else p.reject(new Error(`pi threw while loading the session:\n${msg.error}`));
  });
  w.worker.on('error', failAll);
  w.worker.on('exit', (code) => failAll(new Error(`pi worker exited (code ${code})`)));
  current = w;
  return w;
}

function runPi(file: string, dir: string, timeoutMs: number): Promise<WorkerResult> {
  const w = getWorker();
  const reqId = nextReqId++;
  return new Promise<WorkerResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      w.pending.delete(reqId);
      reject(
        new Error(`pi did not finish loading the session within ${timeoutMs} ms (a parentId cycle makes pi loop forever)`),
      );
      if (current === w) current = null;
      void w.worker.terminate(); // anything queued behind it is rejected via 'exit'
    }, timeoutMs);
    w.pending.set(reqId, {
      resolve: (r) => {
        clearTimeout(timer);
        resolve(r);
      },
      reject: (e) => {
        clearTimeout(timer);
        reject(e);
      },
    });
    w.worker.postMessage({ reqId, file, dir });
  });
}

/**
 * Open JSONL text with pi's `SessionManager.open()` (via a temp file, in a worker thread)
 * and build its context with `SessionManager#buildSessionContext()` and `convertToLlm()`.
 */
export async function loadPiSession(jsonl: string, options: PiLoadOptions = {}): Promise<PiLoadedSession> {
  const dir = await mkdtemp(join(tmpdir(), 'td-pi-interop-'));
  try {
    const file = join(dir, 'session.jsonl');
    await writeFile(file, jsonl, 'utf8');
    const loaded = await runPi(file, dir, options.timeoutMs ?? 20_000); // well under a second when idle; room for a busy machine, inside the test timeout
    const firstParsed = parseSessionEntries(jsonl)[0] as { id?: unknown } | undefined;
    return {
      ...loaded,
      discarded: firstParsed !== undefined && loaded.header?.id !== firstParsed.id,
      fileAfterLoad: await readFile(file, 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Mirrors src/formats/pi/markers.ts (kept separate so this check does not depend on src/).
const ALIAS_CALL_TYPES = new Set(['toolCall', 'toolUse', 'functionCall']);
const ALIAS_CALL_ID_FIELDS = ['id', 'toolCallId', 'toolUseId', 'call_id', 'tool_call_id', 'tool_use_id'];
const ALIAS_RESULT_ID_FIELDS = ['toolCallId', 'toolUseId', 'tool_call_id', 'tool_use_id', 'callId', 'call_id'];
const NO_ID = '(no id)';

function firstString(obj: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const f of fields) {
    const v = obj[f];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/**
 * Loads JSONL text exactly as pi does (its own parse + migration + buildSessionContext from
 * the last entry) and checks tool pairing in the resulting messages: every assistant toolCall
 * id must be answered by a toolResult before the next assistant/user message, and every
 * toolResult must answer a call of the closest preceding assistant.
 *
 * Details of the check:
 * - runs over `convertToLlm(context.messages)`, so custom / bashExecution / summaries count as
 *   user messages (boundaries); `messages` and `roles` describe `context.messages` itself;
 * - a call still unanswered at the end of the context counts as unanswered (the next prompt
 *   would be a user message);
 * - a result "answers" one pending call of the closest preceding assistant, with no user
 *   message in between; a second result for the same call, a result after a user message, or
 *   a result with no id is an orphan;
 * - error/aborted assistants are checked like any other (pi-ai would drop them at replay).
 */
export async function piContextCheck(jsonl: string, options: PiContextOptions = {}): Promise<PiContextCheck> {
  const aliases = options.aliases ?? true;
  const callTypes = aliases ? ALIAS_CALL_TYPES : new Set(['toolCall']);
  const callIdFields = aliases ? ALIAS_CALL_ID_FIELDS : ['id'];
  const resultIdFields = aliases ? ALIAS_RESULT_ID_FIELDS : ['toolCallId'];

  const { context, llmMessages } = await loadPiSession(jsonl, options);

  const unansweredCalls: string[] = [];
  const orphanResults: string[] = [];
  const seenCalls = new Set<string>();
  const duplicateCallIds: string[] = [];
  const invalidToolNames: string[] = [];
  /** Unanswered calls of the closest preceding assistant; null after a user message. */
  let pending: string[] | null = null;

  for (const msg of llmMessages) {
    const m = msg as unknown as Record<string, unknown>;
    if (m.role === 'toolResult') {
      const id = firstString(m, resultIdFields);
      const idx = id === undefined || pending === null ? -1 : pending.indexOf(id);
      if (pending !== null && idx >= 0) pending.splice(idx, 1);
      else orphanResults.push(id ?? NO_ID);
      continue;
    }
    // assistant or user (everything else convertToLlm kept is a user message): close the window
    if (pending !== null) unansweredCalls.push(...pending);
    pending = null;
    if (m.role === 'assistant') {
      pending = [];
      const content = Array.isArray(m.content) ? (m.content as unknown[]) : [];
      for (const block of content) {
        if (!block || typeof block !== 'object') continue;
        const b = block as Record<string, unknown>;
        if (typeof b.type !== 'string' || !callTypes.has(b.type)) continue;
        const id = firstString(b, callIdFields) ?? NO_ID;
        pending.push(id);
        if (seenCalls.has(id)) duplicateCallIds.push(id);
        seenCalls.add(id);
        if (typeof b.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(b.name)) invalidToolNames.push(String(b.name));
      }
    }
  }
  if (pending !== null) unansweredCalls.push(...(pending as string[]));

  return {
    messages: context.messages.length,
    unansweredCalls,
    orphanResults,
    duplicateCallIds,
    invalidToolNames,
    roles: context.messages.map((m) => (m as { role: string }).role),
  };
}
