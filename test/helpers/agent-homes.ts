import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { call, Session } from './session.js';

/**
 * Session files as each agent lays them out under a home folder, for tests of where sessions are
 * found. Each writer puts a small transcript of the agent's own format at the agent's own path
 * and returns that path; `damaged` ends it with a tool call that has no result (the agent died
 * mid-tool), the line a later `toolCall` appends is in the same shape.
 */

let clock = Date.UTC(2026, 4, 5, 8, 0, 0);
const at = () => new Date((clock += 1000)).toISOString();

/** Empty home folders for one test file, under a root removed when the file's tests are done. */
export function homeMaker(prefix: string): () => string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let count = 0;
  return () => {
    const home = join(root, `home-${++count}`);
    mkdirSync(home);
    return home;
  };
}

function write(path: string, lines: readonly string[]): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
  return path;
}

/** `/home/me/proj` → `-home-me-proj`, as Claude Code and Qwen Code name a project folder. */
export const dashed = (cwd: string) => cwd.replace(/[^a-zA-Z0-9]/g, '-');
export const piFolder = (cwd: string) => `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;

function piLines(id: string, cwd: string, damaged: boolean): string[] {
  const session = new Session({ id, cwd }).user('list the notes');
  if (damaged) session.calls(call('call_pi_1'));
  else session.reply('There are two notes.');
  return session.lines;
}

export function piSession(home: string, cwd: string, id: string, damaged = true): string {
  return write(join(home, '.pi', 'agent', 'sessions', piFolder(cwd), `2026-05-05T08-00-00-000Z_${id}.jsonl`), piLines(id, cwd, damaged));
}

export function openclawSession(home: string, agent: string, id: string, damaged = true): string {
  return write(join(home, '.openclaw', 'agents', agent, 'sessions', `${id}.jsonl`), piLines(id, '/srv/openclaw', damaged));
}

/** A pi/OpenClaw assistant entry calling a tool, after the entry `parent`. */
export function piToolCall(parent: string, callId: string): string {
  return JSON.stringify({ type: 'message', id: `e-${callId}`, parentId: parent, timestamp: at(), message: { role: 'assistant', content: [call(callId)], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'toolUse', timestamp: clock } });
}

function claudeLine(id: string, cwd: string, uuid: string, parent: string | null, type: 'user' | 'assistant', message: Record<string, unknown>): string {
  return JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId: id, version: '2.1.19', gitBranch: 'main', type, message, uuid, timestamp: at() });
}

/** A Claude Code assistant line calling a tool, after the line `parent`. */
export function claudeToolCall(id: string, cwd: string, parent: string, toolId: string): string {
  return claudeLine(id, cwd, `uuid-${toolId}`, parent, 'assistant', {
    model: 'claude-sonnet-4-5',
    id: `msg_${toolId}`,
    type: 'message',
    role: 'assistant',
    content: [{ type: 'tool_use', id: toolId, name: 'Bash', input: { command: 'ls' } }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 3, output_tokens: 5 },
  });
}

export function claudeSession(home: string, cwd: string, id: string, damaged = true): string {
  const lines = [claudeLine(id, cwd, 'uuid-user-1', null, 'user', { role: 'user', content: 'List the files.' })];
  if (damaged) lines.push(claudeToolCall(id, cwd, 'uuid-user-1', 'toolu_01Unanswered'));
  else lines.push(claudeLine(id, cwd, 'uuid-reply-1', 'uuid-user-1', 'assistant', { model: 'claude-sonnet-4-5', id: 'msg_reply', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Two files.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 5 } }));
  return write(join(home, '.claude', 'projects', dashed(cwd), `${id}.jsonl`), lines);
}

/** A Codex function call line. */
export function codexToolCall(callId: string): string {
  return JSON.stringify({ timestamp: at(), type: 'response_item', payload: { type: 'function_call', name: 'shell_command', arguments: '{"command":"ls"}', call_id: callId } });
}

export function codexSession(home: string, cwd: string, id: string, damaged = true, folder = 'sessions/2026/05/05'): string {
  const lines = [
    JSON.stringify({ timestamp: at(), type: 'session_meta', payload: { id, timestamp: at(), cwd, originator: 'codex_cli_rs', cli_version: '0.63.0', instructions: null, source: 'cli', model_provider: 'openai' } }),
    JSON.stringify({ timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Run the tests.' }] } }),
  ];
  if (damaged) lines.push(codexToolCall('call_codex_1'));
  else lines.push(JSON.stringify({ timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'All pass.' }] } }));
  return write(join(home, '.codex', ...folder.split('/'), `rollout-2026-05-05T08-00-00-${id}.jsonl`), lines);
}

/** Sessions of the other agents: only where their files are and what their first line says matter to the tests that use these. */
export function geminiSession(home: string, project: string, id: string): string {
  return write(join(home, '.gemini', 'tmp', project, 'chats', `session-2026-05-05T08-00-${id.slice(0, 8)}.jsonl`), [JSON.stringify({ sessionId: id, projectHash: 'x', startTime: at(), lastUpdated: at(), kind: 'main' })]);
}

export function copilotSession(home: string, id: string): string {
  return write(join(home, '.copilot', 'session-state', id, 'events.jsonl'), [JSON.stringify({ type: 'session.start', data: { sessionId: id, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.102', startTime: at() }, id: 'e1', timestamp: at(), parentId: null })]);
}

export function qwenSession(home: string, cwd: string, id: string): string {
  return write(join(home, '.qwen', 'projects', dashed(cwd), 'chats', `${id}.jsonl`), [JSON.stringify({ uuid: 'q1', parentUuid: null, sessionId: id, timestamp: at(), type: 'user', cwd, message: { role: 'user', parts: [{ text: 'hi' }] } })]);
}
