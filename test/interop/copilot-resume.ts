/**
 * Interop helper: resume a Copilot CLI session with the real client and report the request it
 * sends and what it had to mend first.
 *
 * Copilot CLI's session loader is Rust inside a Node SEA binary (`@github/copilot` 1.0.102's
 * platform package), so it cannot be imported: the binary itself is run, offline
 * (`COPILOT_OFFLINE=true`: no GitHub, no update check), with its model provider pointed at a
 * capture server on 127.0.0.1 that records each request and answers 400. The session goes into a
 * fresh COPILOT_HOME; resuming appends to it, which is how the client's own mends show (a failed
 * `tool.execution_complete` with model "resumed", a `session.warning` of type interrupted_tools),
 * or, for lines it cannot read, a file rewritten without them and a stand-in result sent in their
 * place; besides the lines of its process log ("Completing N orphaned tool calls.", "Moved …", "Dropped …").
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { baseEnv } from '../../scripts/resume/base-env.mjs';

/** The client's platform packages, by platform and architecture (`@github/copilot`'s optional dependencies). */
function platformPackages(): string[] {
  const name = `${process.platform}-${process.arch}`;
  return process.platform === 'linux' ? [`@github/copilot-${name}`, `@github/copilot-linuxmusl-${process.arch}`] : [`@github/copilot-${name}`];
}

/** The Copilot CLI binary installed for this machine in `folder` (test/interop), or undefined when none was. */
export function copilotBinary(folder = import.meta.dirname): string | undefined {
  const require = createRequire(join(folder, 'package.json'));
  for (const name of platformPackages()) {
    try {
      // The package exports nothing but its binary.
      const binary = require.resolve(name);
      if (existsSync(binary)) return binary;
    } catch {
      // Not installed for this platform: try the next.
    }
  }
  return undefined;
}

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string }>;
  tool_call_id?: string;
}

export interface CopilotResume {
  /** The messages of the first chat request, or undefined when the client sent none (it did not load the file). */
  messages?: ChatMessage[];
  /** What the client printed, for a failure's message. */
  output: string;
  /** How the client said it mended the history before sending it: appended events and log lines. */
  mends: string[];
}

/** Records the first chat request of each run (named by the first part of its path) and answers every request 400. */
export class CaptureServer {
  private readonly requests = new Map<string, string>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<CaptureServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const capture = new CaptureServer(server, typeof address === 'object' && address !== null ? address.port : 0);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const run = (request.url ?? '').split('/')[1] ?? '';
        if ((request.url ?? '').endsWith('/chat/completions') && !capture.requests.has(run)) capture.requests.set(run, Buffer.concat(chunks).toString('utf8'));
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'captured by the transcript-doctor interop test', type: 'invalid_request_error' } }));
      });
    });
    return capture;
  }

  request(run: string): string | undefined {
    return this.requests.get(run);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Nothing may leave the host: offline mode, no updates, no telemetry, and any proxy-aware request sent to a closed local port. */
function offlineEnv(home: string, packages: string, baseUrl: string): NodeJS.ProcessEnv {
  const nowhere = 'http://127.0.0.1:9';
  return {
    ...baseEnv(home),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    COPILOT_HOME: join(home, '.copilot'),
    // Where the binary unpacks its app (235 MB): once per test run, shared by its resumes.
    COPILOT_PKG_CACHE_HOME: packages,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_OTEL_ENABLED: 'false',
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_BASE_URL: baseUrl,
    COPILOT_PROVIDER_API_KEY: 'capture',
    COPILOT_MODEL: 'gpt-4.1',
    HTTP_PROXY: nowhere,
    HTTPS_PROXY: nowhere,
    ALL_PROXY: nowhere,
    NO_PROXY: '127.0.0.1,localhost',
    NODE_USE_ENV_PROXY: '1',
  };
}

/** What the client puts in place of a result it could not read (the split record of #2649), in memory only. */
const STAND_IN = 'The execution of this tool, or a previous tool was interrupted.';

/** What the client did to the file, said in its log and sent, that shows it mended the history itself. */
function mendsIn(before: string, after: string, log: string, messages: readonly ChatMessage[]): string[] {
  const rewrote = !after.startsWith(before);
  const appended = rewrote ? after : after.slice(before.length);
  const events = appended
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { type?: string; data?: { model?: string; warningType?: string; toolCallId?: string } }];
      } catch {
        return [];
      }
    });
  return [
    ...(rewrote ? ['rewrote the file instead of appending to it (dropped or changed lines it could not read)'] : []),
    ...messages.filter((message) => message.role === 'tool' && message.content === STAND_IN).map((message) => `sent its stand-in for the result of ${message.tool_call_id}`),
    ...events.filter((event) => event.type === 'tool.execution_complete' && event.data?.model === 'resumed').map((event) => `appended an interrupted completion for ${event.data?.toolCallId}`),
    ...events.filter((event) => event.type === 'session.warning' && event.data?.warningType === 'interrupted_tools').map(() => 'appended an interrupted_tools warning'),
    ...log.split('\n').filter((line) => /orphaned|\bMoved \d+|\bDropped \d+/.test(line)).map((line) => `log: ${line.replace(/^\S+ /, '')}`),
  ];
}

/**
 * Resumes `events` (the text of an events.jsonl) as session `sessionId` with `copilot --resume
 * <id> -p continue`, and reports the request it sent and what it mended. `run` names the run
 * at the capture server.
 */
export async function resumeWithCopilot(binary: string, server: CaptureServer, packages: string, run: string, sessionId: string, events: string): Promise<CopilotResume> {
  const home = await mkdtemp(join(tmpdir(), 'td-copilot-client-'));
  const file = join(home, '.copilot', 'session-state', sessionId, 'events.jsonl');
  await mkdir(dirname(file), { recursive: true });
  await mkdir(join(home, 'tmp'));
  await mkdir(join(home, 'project'));
  await writeFile(file, events);
  const env = offlineEnv(home, packages, `http://127.0.0.1:${server.port}/${run}/v1`);
  const child = spawn(binary, [`--resume=${sessionId}`, '-p', 'continue'], { env, cwd: join(home, 'project'), stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  // A client that hangs is killed with everything it started.
  const timer = setTimeout(() => (child.pid === undefined ? undefined : process.kill(-child.pid, 'SIGKILL')), 90_000);
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  clearTimeout(timer);
  const logs = join(home, '.copilot', 'logs');
  const log = existsSync(logs) ? (await Promise.all((await readdir(logs)).filter((name) => name.endsWith('.log')).map((name) => readFile(join(logs, name), 'utf8')))).join('\n') : '';
  const request = server.request(run);
  const messages = request === undefined ? undefined : (JSON.parse(request) as { messages: ChatMessage[] }).messages;
  return { messages, output, mends: mendsIn(events, await readFile(file, 'utf8'), log, messages ?? []) };
}
