/**
 * Gemini CLI sessions for the interop test, two kinds. Generated: written line by line with the
 * test builders, in the records the client appends, for every way a run ends (an answer, a kill
 * while a tool runs, a kill while the model streams, …). Client-written: written by the client's
 * own `ChatRecordingService` (0.61.0), driven in the order its chat calls it (a model turn of
 * calls is recorded empty, its calls once they complete), then stopped where a kill stops it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answer, calling, context, info, jsonl, metadata, resetClock, rewritten, touched, user, type Line, type ToolCall } from '../formats/gemini-cli/session.js';
import { geminiCore } from './gemini-history.js';

export interface Session {
  name: string;
  text: string;
}

/** How the history before the last prompt goes. */
const MIDDLES = ['chat', 'one call', 'parallel calls', 'resumed'] as const;
/** How the run ends after the last prompt. */
const ENDINGS = ['answered', 'killed while a tool ran, its call recorded', 'killed while a tool ran', 'killed while the model streamed after its tools', 'killed while the model streamed'] as const;

/** One generated session per middle and ending: 20. */
export function generatedSessions(): Session[] {
  return ENDINGS.flatMap((ending, e) => MIDDLES.map((middle, m) => ({ name: `generated ${e * MIDDLES.length + m + 1}: ${middle}, ${ending}`, text: jsonl(generated(middle, ending)) })));
}

function generated(middle: (typeof MIDDLES)[number], ending: (typeof ENDINGS)[number]): Line[] {
  resetClock();
  const lines: Line[] = [metadata(), rewritten([context()]), user('u1', 'What is in this project?'), touched()];
  const ls: ToolCall = { id: 'list_directory-1-a', name: 'list_directory', output: 'README.md\nsrc' };
  const read: ToolCall = { id: 'read_file-2-b', name: 'read_file', output: '# sample' };
  if (middle === 'chat') lines.push(answer('m1', 'A README and a src folder.'), touched());
  if (middle === 'one call' || middle === 'resumed') lines.push(calling('m1', [{ ...ls, output: undefined }]), calling('m1', [ls]), touched(), answer('m2', 'A README and a src folder.'), touched());
  if (middle === 'parallel calls') lines.push(calling('m1', [ls, read]), touched(), answer('m2', 'A README, a src folder; the README is a title.'), touched());
  // A resume writes the metadata again and the history back (`$set.messages`), then an info line.
  if (middle === 'resumed') lines.push(metadata(), rewritten([context(), user('u1', 'What is in this project?'), calling('m1', [ls]), answer('m2', 'A README and a src folder.')]), info('i1', 'Resumed the session.'));
  lines.push(user('u2', 'Run the tests and tell me how they went.'), touched());
  const test: ToolCall = { id: 'run_shell_command-3-c', name: 'run_shell_command', output: '3 passed' };
  switch (ending) {
    case 'answered':
      lines.push(calling('m3', [test]), touched(), answer('m4', 'All 3 tests pass.'), touched());
      break;
    case 'killed while a tool ran, its call recorded':
      lines.push(calling('m3', [{ ...test, output: undefined }]), touched());
      break;
    case 'killed while a tool ran':
      // The model's turn of calls is recorded with no text and its calls only once they complete: a kill leaves it empty.
      lines.push(answer('m3', ''), touched());
      break;
    case 'killed while the model streamed after its tools':
      lines.push(calling('m3', [test]), touched());
      break;
    case 'killed while the model streamed':
      break;
  }
  return lines;
}

/** A call as the client's scheduler reports it to `recordCompletedToolCalls`, as a record. */
export interface CallRecord {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: unknown[] | null;
  status: string;
  timestamp: string;
}

interface Recorder {
  initialize(resumed: undefined, kind: string): Promise<void>;
  recordMessage(message: { type: string; content: unknown; model?: string }): string;
  recordMessageTokens(usage: Record<string, number>): void;
  recordToolCalls(model: string, calls: CallRecord[]): void;
  getConversationFilePath(): string | null;
}

const MODEL = 'gemini-2.5-pro';
const USAGE = { promptTokenCount: 1200, candidatesTokenCount: 20, totalTokenCount: 1220 };

export function call(id: string, name: string, output?: string): CallRecord {
  const result = output === undefined ? null : [{ functionResponse: { id, name, response: { output } } }];
  return { id, name, args: {}, result, status: output === undefined ? 'executing' : 'success', timestamp: new Date().toISOString() };
}

/** What the chat records for one exchange: the prompt, the model's turn of calls (empty), the calls once done, the answer. */
export interface Step {
  prompt: string;
  calls?: CallRecord[];
  /** Whether the calls were recorded (they are, once they complete). */
  recorded?: boolean;
  answer?: string;
  /** The usage the response reports (a small one when not given). */
  usage?: Record<string, number>;
}

const CLIENT_RUNS: Record<string, Step[]> = {
  'healthy: a call and an answer': [{ prompt: 'List the files.', calls: [call('ls-1', 'list_directory', 'README.md')], recorded: true, answer: 'One file, README.md.' }],
  'killed while the first tool ran': [{ prompt: 'Run the slow job.', calls: [call('sh-1', 'run_shell_command')], recorded: false }],
  'killed while a tool ran, after an answered turn': [
    { prompt: 'List the files.', calls: [call('ls-1', 'list_directory', 'README.md')], recorded: true, answer: 'One file, README.md.' },
    { prompt: 'Run the slow job.', calls: [call('sh-2', 'run_shell_command')], recorded: false },
  ],
  'killed while the model streamed after its tools': [{ prompt: 'List the files.', calls: [call('ls-1', 'list_directory', 'README.md')], recorded: true }],
  'killed while a tool ran, the other of a pair recorded': [{ prompt: 'Read the notes and run the job.', calls: [call('rf-1', 'read_file', 'TODO: tests'), call('sh-1', 'run_shell_command')], recorded: true }],
  'killed while the model streamed': [{ prompt: 'List the files.', calls: [call('ls-1', 'list_directory', 'README.md')], recorded: true, answer: 'One file, README.md.' }, { prompt: 'Explain the project in detail.' }],
};

/** The session the client's own recorder writes for one run of steps. */
export async function recordWithClient(steps: Step[], index = 0): Promise<string> {
  const core = (await geminiCore()) as unknown as { ChatRecordingService: new (context: unknown) => Recorder };
  const root = await mkdtemp(join(tmpdir(), 'td-gemini-client-'));
  try {
    const context = {
      promptId: `0b1e2c3d-4f5a-4b6c-8d7e-${String(index).padStart(12, '0')}`,
      config: { getProjectRoot: () => join(root, 'project'), storage: { getProjectTempDir: () => join(root, 'tmp') }, getWorkspaceContext: () => undefined },
      toolRegistry: { getTool: () => undefined },
    };
    const recorder = new core.ChatRecordingService(context);
    await recorder.initialize(undefined, 'main');
    for (const step of steps) {
      recorder.recordMessage({ type: 'user', content: [{ text: step.prompt }] });
      if (step.calls !== undefined) {
        recorder.recordMessageTokens(step.usage ?? USAGE);
        recorder.recordMessage({ type: 'gemini', content: '', model: MODEL });
        if (step.recorded === true) recorder.recordToolCalls(MODEL, step.calls);
      }
      if (step.answer !== undefined) {
        recorder.recordMessageTokens(step.usage ?? USAGE);
        recorder.recordMessage({ type: 'gemini', content: step.answer, model: MODEL });
      }
    }
    return await readFile(recorder.getConversationFilePath()!, 'utf8');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The six sessions the client's own recorder writes for these runs. */
export async function clientWrittenSessions(): Promise<Session[]> {
  const sessions: Session[] = [];
  for (const [name, steps] of Object.entries(CLIENT_RUNS)) sessions.push({ name: `client-written ${sessions.length + 1}: ${name}`, text: await recordWithClient(steps, sessions.length) });
  return sessions;
}
