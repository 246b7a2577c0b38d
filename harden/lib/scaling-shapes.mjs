// Transcripts whose size is one number n, in the shapes whose cost once grew faster than n
// (issue 49, E20–E22). Each function returns the file's text; lines are short, so n decides
// the size (about 60–130 bytes an item).

const pad = (i) => String(i).padStart(8, '0');

/** pi: one assistant message with n tool calls, none answered, then a user turn. */
export function piUnanswered(n) {
  const lines = [
    JSON.stringify({ type: 'session', version: 3, id: 'e20-pi', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' }),
    JSON.stringify({ type: 'message', id: 'u1', parentId: null, message: { role: 'user', content: [{ type: 'text', text: 'go' }] } }),
  ];
  const calls = [];
  for (let i = 0; i < n; i++) calls.push({ type: 'toolCall', id: `c${pad(i)}`, name: 'read', arguments: { p: i } });
  lines.push(JSON.stringify({ type: 'message', id: 'a1', parentId: 'u1', message: { role: 'assistant', content: calls, stopReason: 'toolUse' } }));
  lines.push(JSON.stringify({ type: 'message', id: 'u2', parentId: 'a1', message: { role: 'user', content: [{ type: 'text', text: 'and?' }] } }));
  return lines.join('\n') + '\n';
}

/** Claude Code: one response of n tool_use lines (one message id, each line the child of the one before), none answered. */
export function claudeUnanswered(n) {
  const base = { isSidechain: false, userType: 'external', cwd: '/w', sessionId: 'e20-cc', version: '2.1.19' };
  const lines = [JSON.stringify({ ...base, parentUuid: null, type: 'user', message: { role: 'user', content: 'go' }, uuid: 'u1', timestamp: '2026-01-01T00:00:00.000Z' })];
  let parent = 'u1';
  for (let i = 0; i < n; i++) {
    const uuid = `a${pad(i)}`;
    const message = { id: 'msg_e20', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${pad(i)}`, name: 'Bash', input: { c: i } }] };
    lines.push(JSON.stringify({ ...base, parentUuid: parent, type: 'assistant', message, uuid, timestamp: '2026-01-01T00:00:01.000Z' }));
    parent = uuid;
  }
  lines.push(JSON.stringify({ ...base, parentUuid: parent, type: 'user', message: { role: 'user', content: 'and?' }, uuid: 'u2', timestamp: '2026-01-01T00:00:02.000Z' }));
  return lines.join('\n') + '\n';
}

/** Codex: n function_call items in one turn, none answered, then a user message. */
export function codexUnanswered(n) {
  const at = '2026-01-01T00:00:00.000Z';
  const item = (payload) => JSON.stringify({ timestamp: at, type: 'response_item', payload });
  const lines = [
    JSON.stringify({ timestamp: at, type: 'session_meta', payload: { id: '5d1c2b3a-7e8f-4a90-b1c2-d3e4f5a6b7c8', timestamp: at, cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.63.0', instructions: null, source: 'cli', model_provider: 'openai' } }),
    item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }),
  ];
  for (let i = 0; i < n; i++) lines.push(item({ type: 'function_call', name: 'shell', arguments: `{"c":${i}}`, call_id: `call_${pad(i)}` }));
  lines.push(item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'and?' }] }));
  return lines.join('\n') + '\n';
}

const geminiHeader = (id) =>
  JSON.stringify({ sessionId: id, projectHash: '5d41402abc4b2a76b9719d911017c592e2b7f4c1a9d3e5f60718293a4b5c6d7e', startTime: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-01T00:00:00.000Z', kind: 'main' });

/** Gemini CLI: one gemini message with n calls still executing, then a user message. */
export function geminiUnanswered(n) {
  const calls = [];
  for (let i = 0; i < n; i++) calls.push({ id: `c${pad(i)}`, name: 'read_file', args: { p: i }, status: 'executing' });
  return [
    geminiHeader('e20-gemini'),
    JSON.stringify({ id: 'u1', timestamp: '2026-01-01T00:00:01.000Z', type: 'user', content: [{ text: 'go' }] }),
    JSON.stringify({ id: 'g1', timestamp: '2026-01-01T00:00:02.000Z', type: 'gemini', content: '', model: 'gemini-2.5-pro', toolCalls: calls }),
    JSON.stringify({ id: 'u2', timestamp: '2026-01-01T00:00:03.000Z', type: 'user', content: [{ text: 'and?' }] }),
  ].join('\n') + '\n';
}

/**
 * pi: a spine of n turns (user, then an assistant call and its result), a one-message fork off
 * every turn's user message, and the last message hung on the first: the whole spine is abandoned.
 */
export function piForks(n) {
  const lines = [JSON.stringify({ type: 'session', version: 3, id: 'e21-pi', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' })];
  const message = (id, parentId, body) => lines.push(JSON.stringify({ type: 'message', id, parentId, message: body }));
  const user = (text) => ({ role: 'user', content: [{ type: 'text', text }] });
  message('root', null, user('start'));
  let parent = 'root';
  for (let i = 0; i < n; i++) {
    const k = pad(i);
    message(`u${k}`, parent, user('next'));
    message(`f${k}`, `u${k}`, { role: 'assistant', content: [{ type: 'text', text: 'fork' }], stopReason: 'stop' });
    message(`a${k}`, `u${k}`, { role: 'assistant', content: [{ type: 'toolCall', id: `c${k}`, name: 'read', arguments: {} }], stopReason: 'toolUse' });
    message(`r${k}`, `a${k}`, { role: 'toolResult', toolCallId: `c${k}`, toolName: 'read', content: [{ type: 'text', text: 'ok' }], isError: false });
    parent = `r${k}`;
  }
  message('leaf', 'root', user('start over'));
  return lines.join('\n') + '\n';
}

/** Gemini CLI: n user messages, then n `$rewindTo` records, each taking back the newest one left. */
export function geminiRewinds(n) {
  const lines = [geminiHeader('e22-gemini'), JSON.stringify({ id: 'first', timestamp: '2026-01-01T00:00:01.000Z', type: 'user', content: [{ text: 'go' }] })];
  for (let i = 0; i < n; i++) lines.push(JSON.stringify({ id: `m${pad(i)}`, timestamp: '2026-01-01T00:00:02.000Z', type: 'user', content: [{ text: 'again' }] }));
  for (let i = n - 1; i >= 0; i--) lines.push(JSON.stringify({ $rewindTo: `m${pad(i)}` }));
  lines.push(JSON.stringify({ id: 'last', timestamp: '2026-01-01T00:00:03.000Z', type: 'gemini', content: 'done', model: 'gemini-2.5-pro' }));
  return lines.join('\n') + '\n';
}

/** Every shape by name: the format it is in and what the entry id calls it. */
export const SCALING_SHAPES = {
  'E20 pi': piUnanswered,
  'E20 claude-code': claudeUnanswered,
  'E20 codex': codexUnanswered,
  'E20 gemini-cli': geminiUnanswered,
  'E21 pi forks': piForks,
  'E22 gemini-cli rewinds': geminiRewinds,
};
