import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scan } from '../../src/index.js';
import { call, Session, text } from '../helpers/session.js';

// OpenClaw's own loader needs Node >= 24.16 and the whole Gateway (openclaw 2026.9.6: 331 MB
// unpacked, ~70 dependencies), so the plugin is tested against OpenClaw's documented contract
// instead: the plugin-entry object definePluginEntry returns ({id, name, description,
// configSchema, register}), `api.on(name, handler)`, before_message_write called synchronously
// with {message, sessionKey?, agentId?} and obeying {block: true}, session_end awaited with
// {sessionId, sessionKey?, reason?, sessionFile?, transcriptArchived?}
// (docs/plugins/hooks/reference.md, tool-policy.md; dist PluginHook*Event types).

const PLUGIN_DIR = join(import.meta.dirname, '..', '..', 'extensions', 'openclaw');

type Handler = (event: Record<string, unknown>, ctx?: Record<string, unknown>) => unknown;
interface Registered {
  handlers: Map<string, Handler>;
  logs: { level: string; message: string }[];
}

async function loadPlugin(): Promise<Registered> {
  const manifest = JSON.parse(readFileSync(join(PLUGIN_DIR, 'openclaw.plugin.json'), 'utf8'));
  const pkg = JSON.parse(readFileSync(join(PLUGIN_DIR, 'package.json'), 'utf8'));
  const entryFile = join(PLUGIN_DIR, pkg.openclaw.extensions[0]);
  const { default: entry } = await import(pathToFileURL(entryFile).href);
  expect(entry.id).toBe(manifest.id);
  expect(entry.configSchema).toEqual(manifest.configSchema);
  const handlers = new Map<string, Handler>();
  const logs: Registered['logs'] = [];
  const api = {
    id: entry.id,
    on: (name: string, handler: Handler) => handlers.set(name, handler),
    logger: { info: (message: string) => logs.push({ level: 'info', message }), warn: (message: string) => logs.push({ level: 'warn', message }) },
  };
  const returned = entry.register(api);
  // register must stay synchronous.
  expect(returned).toBeUndefined();
  return { handlers, logs };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-openclaw-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown[], stopReason = 'stop') => ({ role: 'assistant', content, stopReason });
const result = (toolCallId: string | undefined) => ({ role: 'toolResult', toolCallId, toolName: 'read', content: [text('ok')], isError: false });

describe('the OpenClaw plugin', () => {
  it('is a plugin package OpenClaw can discover: manifest, entry, the two hooks', async () => {
    const manifest = JSON.parse(readFileSync(join(PLUGIN_DIR, 'openclaw.plugin.json'), 'utf8'));
    expect(manifest.activation).toEqual({ onStartup: true });
    const { handlers } = await loadPlugin();
    expect([...handlers.keys()].sort()).toEqual(['before_message_write', 'session_end']);
  });

  it('before_message_write lets a conversation through and blocks orphan and duplicate results, synchronously', async () => {
    const write = (await loadPlugin()).handlers.get('before_message_write')!;
    const verdicts = [
      user('read my notes'),
      assistant([text('Let me look.'), call('toolu_01A'), { type: 'toolUse', id: 'toolu_01B', name: 'read', input: {} }], 'toolUse'),
      result('toolu_01A'),
      { role: 'toolResult', toolUseId: 'toolu_01B', content: [text('ok')] },
      result('toolu_01A'), // answered already
      result('toolu_99Z'), // never called
      result(undefined), // no id at all
      assistant([text('Both read.')]),
    ].map((message) => write({ message, sessionKey: 'agent:main:main' }));
    expect(verdicts).toEqual([undefined, undefined, undefined, undefined, { block: true }, { block: true }, { block: true }, undefined]);
  });

  it('before_message_write blocks blank user and assistant messages, not ones with a call, an image or text', async () => {
    const write = (await loadPlugin()).handlers.get('before_message_write')!;
    const blank = [user(''), user('  \n'), user([]), user([text(' ')]), assistant([], 'error'), assistant([text(''), text('\n')]), { role: 'assistant', stopReason: 'error' }];
    for (const message of blank) expect(write({ message, sessionKey: 's' }), JSON.stringify(message)).toEqual({ block: true });
    const kept = [user('hi'), user([{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]), assistant([call('toolu_01C')], 'toolUse'), assistant([{ type: 'thinking', thinking: 'hm' }])];
    for (const message of kept) expect(write({ message, sessionKey: 's' }), JSON.stringify(message)).toBeUndefined();
    expect(write({ message: { role: 'custom', content: '' }, sessionKey: 's' })).toBeUndefined();
  });

  it('lets the first write of a session it has not seen through (a result for a call from before a gateway restart), and keeps sessions apart', async () => {
    const write = (await loadPlugin()).handlers.get('before_message_write')!;
    expect(write({ message: result('toolu_old'), sessionKey: 'restarted' })).toBeUndefined();
    write({ message: assistant([call('toolu_A1')], 'toolUse'), sessionKey: 'a' });
    expect(write({ message: user('next'), sessionKey: 'b' })).toBeUndefined();
    expect(write({ message: result('toolu_A1'), sessionKey: 'b' })).toEqual({ block: true });
    expect(write({ message: result('toolu_A1'), sessionKey: 'a' })).toBeUndefined();
    // A message of another role makes its session known too: an orphan after it is blocked.
    expect(write({ message: { role: 'custom', content: 'note' }, sessionKey: 'c' })).toBeUndefined();
    expect(write({ message: result('toolu_C1'), sessionKey: 'c' })).toEqual({ block: true });
  });

  it('session_end repairs the session file in place, keeping a backup, so the next load is clean', async () => {
    const { handlers, logs } = await loadPlugin();
    const file = join(dir, 'session.jsonl');
    const before = new Session().user('read my notes').calls(call('toolu_01A')).jsonl();
    writeFileSync(file, before);
    expect((await scan(file)).summary.errors).toBeGreaterThan(0);

    await handlers.get('session_end')!({ sessionId: 'x', sessionKey: 'k', messageCount: 2, reason: 'shutdown', sessionFile: file });

    expect((await scan(file)).summary.errors).toBe(0);
    const backups = readdirSync(dir).filter((name) => name.startsWith('session.jsonl.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dir, backups[0]!), 'utf8')).toBe(before);
    expect(logs).toEqual([{ level: 'info', message: `transcript-doctor: repaired ${file}` }]);
  });

  it('session_end leaves an archived transcript, a missing file field, and a locked file alone, logging the refusal', async () => {
    const { handlers, logs } = await loadPlugin();
    const end = handlers.get('session_end')!;
    const file = join(dir, 'held.jsonl');
    const before = new Session().user('hi').calls(call('toolu_01A')).jsonl();
    writeFileSync(file, before);
    await end({ sessionId: 'x', messageCount: 1, reason: 'reset', sessionFile: file, transcriptArchived: true });
    await end({ sessionId: 'x', messageCount: 1, reason: 'unknown' });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(logs).toEqual([]);

    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid }));
    await end({ sessionId: 'x', messageCount: 1, reason: 'idle', sessionFile: file });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.level).toBe('warn');
    expect(logs[0]!.message).toMatch(/locked by running process/);
    expect(existsSync(`${file}.lock`)).toBe(true);
  });
});
