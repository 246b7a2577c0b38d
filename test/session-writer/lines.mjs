/**
 * Sessions written line by line as each agent writes them (pi / OpenClaw v3, Claude Code, Codex,
 * Qwen Code, Copilot CLI), for the session writer's tests and the child processes they start. Each
 * builder links every entry to the one it made before, as the agent does: it knows nothing of
 * what the writer holds.
 */

let clock = Date.parse('2026-11-26T09:00:00.000Z');
const now = () => new Date((clock += 1000)).toISOString();

function piSession(prefix) {
  let n = 0;
  const session = {
    leaf: null,
    next(body) {
      const id = `${prefix}${(n++).toString(16).padStart(4, '0')}`;
      const entry = { type: body.type ?? 'message', id, parentId: session.leaf, timestamp: now(), ...body };
      session.leaf = id;
      return entry;
    },
    header: () => ({ type: 'session', version: 3, id: `${prefix}-session`, timestamp: now(), cwd: '/work/demo' }),
    user: (text) => session.next({ message: { role: 'user', content: [{ type: 'text', text }], timestamp: clock } }),
    reply: (text) =>
      session.next({ message: { role: 'assistant', content: [{ type: 'text', text }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: USAGE, stopReason: 'stop', timestamp: clock } }),
    assistant: (calls) =>
      session.next({
        message: { role: 'assistant', content: calls.map(([id, name]) => ({ type: 'toolCall', id, name, arguments: { path: 'README.md' } })), api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: USAGE, stopReason: 'toolUse', timestamp: clock },
      }),
    result: (callId, name) => session.next({ message: { role: 'toolResult', toolCallId: callId, toolName: name, content: [{ type: 'text', text: `output of ${name}` }], isError: false, timestamp: clock } }),
    aside: () => session.next({ type: 'custom', customType: 'progress', data: { step: n } }),
  };
  return session;
}

const USAGE = { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 30 };

function claudeCodeSession(prefix, side) {
  let n = 0;
  const sessionId = `${side?.sessionOf ?? prefix}-5d2c-4f19-a6d0-8e2b4c9f1a37`;
  const envelope = { isSidechain: side !== undefined, userType: 'external', cwd: '/work/demo', sessionId, version: '2.1.19', gitBranch: 'main', ...(side?.agentId === undefined ? {} : { agentId: side.agentId }) };
  const session = {
    leaf: null,
    next(type, body) {
      const uuid = `${prefix}-4a1b-4c2d-8e3f-${(n++).toString(16).padStart(12, '0')}`;
      const line = { parentUuid: session.leaf, ...envelope, type, ...body, uuid, timestamp: now() };
      session.leaf = uuid;
      return line;
    },
    header: () => undefined,
    user: (text) => session.next('user', { message: { role: 'user', content: text } }),
    reply: (text) => session.next('assistant', { message: assistantMessage(`msg_${prefix}${n}`, [{ type: 'text', text }], 'end_turn') }),
    /** One line per call, as Claude Code writes a response a block a line. */
    assistantLines: (calls) => {
      const id = `msg_${prefix}${n}`;
      return calls.map(([callId, name], i) => session.next('assistant', { message: assistantMessage(id, [{ type: 'tool_use', id: callId, name, input: { command: 'ls' } }], i === calls.length - 1 ? 'tool_use' : null) }));
    },
    result: (callId) => session.next('user', { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: 'ok', is_error: false }] }, toolUseResult: 'ok' }),
    aside: () => session.next('progress', { data: { type: 'hook_progress', hookEvent: 'PostToolUse' }, toolUseID: `toolu_progress_${n}` }),
    /** A sub-agent's own lines in this file, a chain from a root of its own; `agentId` as Claude Code 2.x names it (1.0 named none). */
    sideChain: (sidePrefix, agentId) => claudeCodeSession(sidePrefix, { agentId, sessionOf: prefix }),
  };
  return session;
}

function assistantMessage(id, content, stopReason) {
  return { model: 'claude-opus-4-5-20251101', id, type: 'message', role: 'assistant', content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 40 } };
}

function codexSession(prefix) {
  const line = (type, payload) => ({ timestamp: now(), type, payload });
  return {
    leaf: null,
    header: () =>
      line('session_meta', { id: `${prefix}-7e8f-4a90-b1c2-d3e4f5a6b7c8`, timestamp: now(), cwd: '/work/demo', originator: 'codex_cli_rs', cli_version: '0.63.0', instructions: null, source: 'cli', model_provider: 'openai' }),
    user: (text) => line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] }),
    reply: (text) => line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }),
    /** One line per call: parallel function calls of one response. */
    assistantLines: (calls) => calls.map(([callId, name]) => line('response_item', { type: 'function_call', name, arguments: '{"command":"ls"}', call_id: callId })),
    result: (callId) => line('response_item', { type: 'function_call_output', call_id: callId, output: 'ok' }),
    aside: () => line('event_msg', { type: 'token_count', info: null }),
  };
}

/** Qwen Code 0.24's records: Claude Code's envelope around a Gemini message (`{role, parts}`). */
function qwenCodeSession(prefix) {
  let n = 0;
  const session = {
    leaf: null,
    next(type, body) {
      const uuid = `${prefix}-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}`;
      const line = { uuid, parentUuid: session.leaf, sessionId: `${prefix}-0000-4000-8000-000000000001`, timestamp: now(), type, cwd: '/work/demo', version: '0.24.4', ...body };
      session.leaf = uuid;
      return line;
    },
    header: () => undefined,
    user: (text) => session.next('user', { message: { role: 'user', parts: [{ text }] } }),
    reply: (text) => session.next('assistant', { model: 'qwen3-coder-plus', message: { role: 'model', parts: [{ text }] } }),
    assistant: (calls) => session.next('assistant', { model: 'qwen3-coder-plus', message: { role: 'model', parts: calls.map(([id, name]) => ({ functionCall: { id, name, args: { file_path: 'a.txt' } } })) } }),
    result: (callId, name) =>
      session.next('tool_result', { message: { role: 'user', parts: [{ functionResponse: { id: callId, name, response: { output: 'ok' } } }] }, toolCallResult: { callId, status: 'success' } }),
    aside: () => session.next('system', { subtype: 'ui_telemetry', systemPayload: { uiEvent: { 'event.name': 'qwen-code.api_response' } } }),
  };
  return session;
}

/** Copilot CLI 1.0's `events.jsonl`: each event names the one before it. */
function copilotCliSession(prefix) {
  let n = 0;
  const session = {
    leaf: null,
    event(type, data) {
      const id = `${prefix}-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}`;
      const line = { type, data, id, timestamp: now(), parentId: session.leaf };
      session.leaf = id;
      return line;
    },
    header: () => session.event('session.start', { sessionId: `${prefix}-5b0c-4f3e-8a27-3c9d1e7f4b60`, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.102', startTime: now(), selectedModel: 'gpt-4.1', context: { cwd: '/work/demo' } }),
    user: (text) => session.event('user.message', { content: text, messageId: `msg-${n}` }),
    reply: (text) => session.event('assistant.message', { messageId: `reply-${n}`, model: 'gpt-4.1', content: text, toolRequests: [] }),
    assistant: (calls) =>
      session.event('assistant.message', { messageId: `reply-${n}`, model: 'gpt-4.1', content: '', toolRequests: calls.map(([toolCallId, name]) => ({ toolCallId, name, arguments: { command: 'ls' }, type: 'function' })) }),
    result: (callId) => session.event('tool.execution_complete', { toolCallId: callId, model: 'gpt-4.1', success: true, result: { content: 'ok' } }),
    aside: () => session.event('tool.execution_start', { toolCallId: `progress-${n}`, toolName: 'bash', arguments: { command: 'ls' } }),
  };
  return session;
}

const BUILDERS = { pi: piSession, 'claude-code': claudeCodeSession, codex: codexSession, 'qwen-code': qwenCodeSession, 'copilot-cli': copilotCliSession };

/** A builder for `format`; ids start with `prefix` (8 hex digits for Claude Code, Codex, Qwen Code and Copilot CLI). */
export function sessionLines(format, prefix = 'a1b2c3d4') {
  const session = BUILDERS[format](prefix);
  // pi writes a message's calls in one line; the others one line per call.
  if (session.assistantLines === undefined) session.assistantLines = (calls) => [session.assistant(calls)];
  return session;
}

/** The call ids a line opens and the results it gives, read the way each agent does. */
export function pairingOf(format, value) {
  const calls = [];
  const results = [];
  if (format === 'pi' && value.type === 'message') {
    const message = value.message;
    if (message.role === 'assistant') for (const block of message.content) if (block.type === 'toolCall') calls.push(block.id);
    if (message.role === 'toolResult') results.push(message.toolCallId);
  } else if (format === 'claude-code' && value.message && Array.isArray(value.message.content)) {
    for (const block of value.message.content) {
      if (block.type === 'tool_use') calls.push(block.id);
      if (block.type === 'tool_result') results.push(block.tool_use_id);
    }
  } else if (format === 'codex' && value.type === 'response_item') {
    if (value.payload.type === 'function_call') calls.push(value.payload.call_id);
    if (value.payload.type === 'function_call_output') results.push(value.payload.call_id);
  } else if (format === 'qwen-code' && value.message && Array.isArray(value.message.parts)) {
    for (const part of value.message.parts) {
      if (part.functionCall) calls.push(part.functionCall.id);
      if (part.functionResponse) results.push(part.functionResponse.id);
    }
  } else if (format === 'copilot-cli') {
    if (value.type === 'assistant.message') for (const request of value.data.toolRequests) calls.push(request.toolCallId);
    if (value.type === 'tool.execution_complete') results.push(value.data.toolCallId);
  }
  return { calls, results };
}

/** Calls in `text` (whole lines only: a last line without its newline is still being written) that no line answers. */
export function unansweredCalls(format, text) {
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const open = new Set();
  for (const raw of complete.split('\n')) {
    if (raw === '') continue;
    const { calls, results } = pairingOf(format, JSON.parse(raw));
    for (const id of calls) open.add(id);
    for (const id of results) open.delete(id);
  }
  return [...open];
}
