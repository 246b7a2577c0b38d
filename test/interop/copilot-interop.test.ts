import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repairBytes } from '../helpers/repair-tester.js';
import { CaptureServer, copilotBinary, resumeWithCopilot, type ChatMessage, type CopilotResume } from './copilot-resume.js';

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'copilot-cli');
const files = readdirSync(DIR).filter((name) => name.endsWith('.jsonl'));
/** The session a fixture whose start is torn is filed under (its folder names it, and repair takes it from there). */
const FALLBACK_SESSION = '7c1e9b42-3d5a-4f86-b0e1-2a9c4d6e8f10';
/**
 * Fixtures Copilot CLI 1.0.102 has to mend as written before it sends them: it completes the call
 * a kill left unanswered, and rewrites a file whose lines it cannot all read without them (the
 * NUL tail, the torn last event, the record over three lines, whose result it replaces by a stand-in).
 */
const MENDED = ['missing-tool-result.jsonl', 'nul-bytes.jsonl', 'split-record.jsonl', 'torn-final-line.jsonl'];
/** Fixtures it cannot load at all as written ("Session … was found but could not be loaded"). */
const REFUSED = ['torn-start.jsonl'];
/** Resumes at once: the machine's cores are shared, and each resume keeps one busy for about a second. */
const PARALLEL = 2;

const sessionOf = (text: string) => /"sessionId":"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/.exec(text)?.[1] ?? FALLBACK_SESSION;

/** Where the request breaks the pairing: every call answered by exactly one tool message after it, every tool message answering a call. */
function pairingProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  const called = new Map<string, number>();
  messages.forEach((message, at) => {
    for (const call of message.tool_calls ?? []) called.set(call.id, at);
  });
  for (const [id, at] of called) {
    const answers = messages.filter((message, k) => message.role === 'tool' && message.tool_call_id === id && k > at).length;
    if (answers !== 1) problems.push(`call ${id} answered ${answers} times`);
  }
  for (const message of messages) if (message.role === 'tool' && !called.has(message.tool_call_id ?? '')) problems.push(`tool message for ${message.tool_call_id} answers no call`);
  return problems;
}

/** The user messages of the history the request replays (the last is the new prompt, `continue`). */
const prompts = (messages: readonly ChatMessage[]) => messages.filter((message) => message.role === 'user').length - 1;

describe('repaired Copilot CLI sessions resume in the real client (1.0.102, offline) with every call answered once and nothing to mend', () => {
  const binary = copilotBinary()!;
  let server: CaptureServer;
  /** One resume per distinct text (a healthy fixture repairs to itself), by the text's hash. */
  const resumes = new Map<string, Promise<CopilotResume>>();
  const texts = new Map<string, { original: string; discard: string; synthetic: string }>();

  beforeAll(async () => {
    server = await CaptureServer.start();
    const packages = mkdtempSync(join(tmpdir(), 'td-copilot-packages-'));
    const queue: Array<() => Promise<void>> = [];
    for (const name of files) {
      const original = readFileSync(join(DIR, name), 'utf8');
      const session = sessionOf(original);
      const repaired = async (mode: 'discard' | 'synthetic') => (await repairBytes(original, mode, `${session}/events.jsonl`)).output.toString('utf8');
      const versions = { original, discard: await repaired('discard'), synthetic: await repaired('synthetic') };
      texts.set(name, versions);
      for (const text of Object.values(versions)) {
        const run = createHash('sha256').update(text).digest('hex').slice(0, 16);
        if (resumes.has(run)) continue;
        let start!: () => void;
        const started = new Promise<void>((resolve) => (start = resolve));
        resumes.set(run, started.then(() => resumeWithCopilot(binary, server, packages, run, session, text)));
        queue.push(async () => {
          start();
          await resumes.get(run)!.catch(() => undefined);
        });
      }
    }
    // The first resume unpacks the client's app for all the others; then a few at a time.
    const first = queue.shift();
    void (async () => {
      await first?.();
      const next = async (): Promise<void> => {
        const job = queue.shift();
        if (job === undefined) return;
        await job();
        return next();
      };
      await Promise.all(Array.from({ length: PARALLEL }, next));
    })();
  }, 60_000);

  // Every resume was started, whichever tests run: the server stays up until the last one ends.
  afterAll(async () => {
    await Promise.allSettled(resumes.values());
    await server?.close();
  }, 300_000);

  const resumeOf = (text: string) => resumes.get(createHash('sha256').update(text).digest('hex').slice(0, 16))!;

  for (const name of files) {
    // What the client makes of the file as written: the damage the repaired versions must not leave.
    it(`as written: ${name}`, async () => {
      const resumed = await resumeOf(texts.get(name)!.original);
      expect(resumed.messages === undefined, resumed.output).toBe(REFUSED.includes(name));
      expect(resumed.mends.length > 0, resumed.mends.join('; ')).toBe(MENDED.includes(name));
    }, 180_000);
    for (const mode of ['discard', 'synthetic'] as const) {
      it(`${mode}: ${name}`, async () => {
        const { original, [mode]: repaired } = texts.get(name)!;
        const [before, after] = await Promise.all([resumeOf(original), resumeOf(repaired)]);
        expect(after.messages, `no request sent: ${after.output}`).toBeDefined();
        expect(pairingProblems(after.messages!)).toEqual([]);
        expect(after.mends).toEqual([]);
        // Every prompt the client sent from the file as written it still sends (a file it could not load sent none).
        expect(prompts(after.messages!)).toBeGreaterThanOrEqual(before.messages === undefined ? 1 : prompts(before.messages));
      }, 180_000);
    }
  }
});
