/**
 * Interop helper: load a Gemini CLI session with the client's OWN code (`@google/gemini-cli`
 * 0.61.0, its bundled core) and report the history it would send on resume.
 *
 * Nothing of the client's loading is reimplemented: the session is written to a temp file and
 * read by `loadConversationRecord` (upserts by id, `$set.messages`, `$rewindTo`, the legacy
 * whole-file record), turned into turns by `convertSessionToClientHistory` (a checkpoint is
 * those turns already, as `/chat resume` reads them), given ids by
 * `ensureStableToolIds` and merged by `coalesceConsecutiveRoles`: the request's `contents`.
 * Only the checks are ours, those the Gemini API makes: each turn of function calls is followed
 * by a turn with as many function responses; and, on the turns the client sends a Gemini 2 or 3
 * model (`stripThoughts`, then merged), no turn of calls first, no response named otherwise than
 * the call of its id, no blank text part. And what the client patches itself before it sends the
 * history: a model message it leaves out (`convertSessionToClientHistory` makes no turn of an empty
 * one), and the turn `GeminiChat.closeUnansweredToolResponseTurn` adds after a history that ends on
 * function responses, run as the client runs it.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Part {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name?: string };
  functionResponse?: { id?: string; name?: string };
}

interface Content {
  role: string;
  parts?: Part[];
}

interface Core {
  loadConversationRecord(path: string): Promise<{ messages: unknown[] } | null>;
  convertSessionToClientHistory(messages: unknown[]): Array<{ id: string; content: Content }>;
  ensureStableToolIds(history: Array<{ id: string; content: Content }>): void;
  coalesceConsecutiveRoles(history: Array<{ content: Content }>): Array<{ content: Content }>;
  stripThoughts(history: Array<{ id: string; content: Content }>): Array<{ id: string; content: Content }>;
  GeminiChat: { prototype: { closeUnansweredToolResponseTurn(this: { agentHistory: { get(): unknown[]; push(turn: { content: Content }): void } }): void } };
}

export interface GeminiHistoryCheck {
  /** Turns of the request. */
  turns: number;
  /** User turns with text: the prompts the user sees again. */
  prompts: number;
  /** Call turns whose next turn answers more or fewer calls: `contents[i]: c calls, r responses`. */
  unequal: string[];
  /** What else the Gemini API refuses in the turns sent: `contents[i]: …`. */
  refused: string[];
  /** What the client mends in memory before it sends the history: a message it leaves out, a turn it adds. */
  patched: string[];
  /** The request's `contents`, as the client builds them. */
  contents: Content[];
}

let core: Promise<Core> | undefined;

/** A `/chat save` checkpoint is the client's history itself (`Logger.loadCheckpoint`: a list, or `{history}`), turned back into turns as `/chat resume` does. */
function checkpointHistory(text: string): Array<{ id: string; content: Content }> {
  const saved = JSON.parse(text) as Content[] | { history: Content[] };
  return (Array.isArray(saved) ? saved : saved.history).map((content, i) => ({ id: `checkpoint-${i}`, content }));
}

/** The client's bundled core (its exports: the loader, the recorder, the chat). */
export function geminiCore(): Promise<Core> {
  return (core ??= loadCore());
}

/** The bundled core is one chunk among many, named by a hash that changes with each release: found by what it defines. */
async function loadCore(): Promise<Core> {
  const require = createRequire(import.meta.url);
  const bundle = join(dirname(require.resolve('@google/gemini-cli/package.json')), 'bundle');
  for (const name of (await readdir(bundle)).filter((file) => file.endsWith('.js')).sort()) {
    const text = await readFile(join(bundle, name), 'utf8');
    if (text.includes('async function loadConversationRecord(')) return (await import(pathToFileURL(join(bundle, name)).href)) as Core;
  }
  throw new Error('no chunk of @google/gemini-cli defines loadConversationRecord');
}

/** The history Gemini CLI builds from a session file's text (`name` keeps its extension: `.json` is the legacy record). */
export async function geminiHistoryCheck(text: string, name = 'session.jsonl'): Promise<GeminiHistoryCheck> {
  const m = await geminiCore();
  const folder = await mkdtemp(join(tmpdir(), 'td-gemini-'));
  try {
    const file = join(folder, name);
    await writeFile(file, text);
    const messages = name.startsWith('checkpoint-') ? [] : ((await m.loadConversationRecord(file))?.messages ?? []);
    const history = name.startsWith('checkpoint-') ? checkpointHistory(text) : m.convertSessionToClientHistory(messages);
    const patched = [...leftOut(messages, history), ...closed(m, history)];
    m.ensureStableToolIds(history);
    const contents = m.coalesceConsecutiveRoles(history).map((turn) => turn.content);
    const count = (content: Content | undefined, key: keyof Part) => (content?.parts ?? []).filter((part) => part[key] !== undefined).length;
    const unequal: string[] = [];
    contents.forEach((content, i) => {
      const calls = count(content, 'functionCall');
      if (calls === 0) return;
      const next = contents[i + 1];
      const responses = next?.role === 'user' ? count(next, 'functionResponse') : 0;
      if (responses !== calls) unequal.push(`contents[${i}]: ${calls} calls, ${responses} responses`);
    });
    const prompts = contents.filter((content) => content.role === 'user' && (content.parts ?? []).some((part) => typeof part.text === 'string')).length;
    return { turns: contents.length, prompts, unequal, patched, contents, refused: refusedIn(m.coalesceConsecutiveRoles(m.stripThoughts(history)).map((turn) => turn.content)) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Model messages of the loaded record the client makes no turn of. */
function leftOut(messages: unknown[], history: Array<{ id: string }>): string[] {
  const sent = new Set(history.map((turn) => turn.id));
  return messages.flatMap((message) => {
    const { id, type } = message as { id: string; type: string };
    return type === 'gemini' && !sent.has(id) ? [`message ${id}: a model message the client leaves out`] : [];
  });
}

/** The turn the client's chat adds before the next prompt, by its own method on a history it holds. */
function closed(m: Core, history: Array<{ id: string; content: Content }>): string[] {
  const added: string[] = [];
  const chat = { agentHistory: { get: () => history, push: (turn: { content: Content }) => void added.push(`contents[${history.length}]: the client adds a model turn ${JSON.stringify(turn.content.parts)}`) } };
  m.GeminiChat.prototype.closeUnansweredToolResponseTurn.call(chat);
  return added;
}

/** A first turn of calls, a response named otherwise than the call of its id, a blank text part. */
function refusedIn(contents: Content[]): string[] {
  const refused: string[] = [];
  if ((contents[0]?.parts ?? []).some((part) => part.functionCall !== undefined)) refused.push('contents[0]: a turn of calls first');
  contents.forEach((content, i) => {
    const calls = (contents[i - 1]?.parts ?? []).flatMap((part) => (part.functionCall === undefined ? [] : [part.functionCall]));
    (content.parts ?? []).forEach((part, k) => {
      if (typeof part.text === 'string' && part.text.trim() === '' && !part.thought) refused.push(`contents[${i}].parts[${k}]: blank text`);
      const response = part.functionResponse;
      const call = response === undefined ? undefined : calls.find((candidate) => candidate.id === response.id);
      if (call !== undefined && call.name !== response!.name) refused.push(`contents[${i}].parts[${k}]: names ${response!.name}, its call ${call.name}`);
    });
  });
  return refused;
}
