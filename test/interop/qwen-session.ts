/**
 * Interop helper: load a session with Qwen Code's OWN resume code (`@qwen-code/qwen-code`,
 * pinned to the version studied) and report what it does with it. Nothing of its loading is
 * reimplemented: the text is written where `SessionService` keeps the session (a temp runtime
 * dir, so ~/.qwen is never touched), then
 *   SessionService.loadSession()          readAllRecords → reconstructHistory({detectGaps}):
 *                                         the parentUuid walk back from the newest record,
 *                                         stopping at a missing parent (a "history gap")
 *   buildSessionHistoryFromConversation() the API history (chat_compression applied)
 *   repairOrphanedToolUseTurns()          what the client would patch in memory before sending:
 *                                         results it injects for unanswered calls, duplicates it drops
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The esbuild chunk of 0.24.4 that exports the session code (the package exports no entry point for it). */
const CORE_CHUNK = '@qwen-code/qwen-code/chunks/chunk-DPEB6S2R.js';

interface Content {
  role?: string;
  parts?: Array<Record<string, unknown>>;
}

interface QwenCore {
  SessionService: new (cwd: string, options: { runtimeBaseDir: string }) => {
    getSessionFilePath(id: string, state: 'active'): string;
    loadSession(id: string): Promise<{ conversation: { messages: unknown[] }; historyGaps?: Array<{ childUuid: string; missingParentUuid: string }> } | undefined>;
  };
  buildSessionHistoryFromConversation(conversation: unknown): { apiHistory: Content[] };
  repairOrphanedToolUseTurns(history: Content[]): { injected: Array<{ callId: string }>; droppedDuplicates: Array<{ callId: string }> };
}

let core: Promise<QwenCore> | undefined;

export interface QwenResume {
  /** Parents the chain walk found missing: the history before each is not sent. */
  gaps: string[];
  /** Call ids the client would answer itself on resume. */
  injected: string[];
  /** Call ids whose repeated responses it would drop. */
  droppedDuplicates: string[];
  /** The texts of the user turns it sends. */
  userTexts: string[];
  /** Contents in the API history. */
  contents: number;
  /** The API history itself, before the client's repair. */
  history: Content[];
}

/** What Qwen Code builds when it resumes the session `text` holds (its first record names the session and cwd). */
export async function qwenResume(text: string): Promise<QwenResume> {
  const m = await (core ??= import(CORE_CHUNK) as Promise<QwenCore>);
  const first = JSON.parse(text.slice(0, text.indexOf('\n'))) as { sessionId: string; cwd: string };
  const runtime = mkdtempSync(join(tmpdir(), 'qwen-interop-'));
  try {
    const service = new m.SessionService(first.cwd, { runtimeBaseDir: runtime });
    const file = service.getSessionFilePath(first.sessionId, 'active');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    const data = await service.loadSession(first.sessionId);
    if (data === undefined) throw new Error('Qwen Code found no session to resume');
    const { apiHistory } = m.buildSessionHistoryFromConversation(data.conversation);
    // It patches the list it is given: count before, on a copy.
    const userTexts = apiHistory.filter((content) => content.role === 'user').flatMap((content) => (content.parts ?? []).filter((part) => typeof part.text === 'string').map((part) => part.text as string));
    const repair = m.repairOrphanedToolUseTurns(structuredClone(apiHistory));
    return {
      gaps: (data.historyGaps ?? []).map((gap) => gap.missingParentUuid),
      injected: repair.injected.map((call) => call.callId),
      droppedDuplicates: repair.droppedDuplicates.map((call) => call.callId),
      userTexts,
      contents: apiHistory.length,
      history: apiHistory,
    };
  } finally {
    rmSync(runtime, { recursive: true, force: true });
  }
}
