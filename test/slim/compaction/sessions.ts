/** Generated sessions for the compaction tests: prompts, a read and an edit per turn, and an answer. */

type Json = Record<string, unknown>;

const SESSION = '6f9619ff-8b86-4d01-b42d-00cf4fc964ff';

function uuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

function time(n: number): string {
  return new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
}

/**
 * A Claude Code session of `turns` turns, each a prompt, one assistant response of two parallel
 * calls written as two lines sharing its message id (the second result hanging off the first
 * call's line, as Claude Code writes it), the two results and an answer. Bookkeeping lines
 * (permission-mode, a title) come first, last-prompt at the end.
 */
export function claudeCodeSession(turns: number, big = 0): string {
  const lines: Json[] = [];
  let n = 0;
  let parent: string | null = null;
  const envelope = { userType: 'external', entrypoint: 'cli', cwd: '/workspace/demo', sessionId: SESSION, version: '2.1.328', gitBranch: 'main' };
  const push = (line: Json) => {
    n += 1;
    const id = uuid(n);
    lines.push({ parentUuid: parent, isSidechain: false, ...line, uuid: id, timestamp: time(n), ...envelope });
    parent = id;
    return id;
  };
  lines.push({ type: 'permission-mode', permissionMode: 'acceptEdits', sessionId: SESSION });
  lines.push({ type: 'custom-title', customTitle: 'parser work', sessionId: SESSION });
  for (let t = 0; t < turns; t++) {
    push({ type: 'user', message: { role: 'user', content: `request ${t}: fix the parser` } });
    const message = (content: Json[], stop: string | null) => ({ id: `msg_${t}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: stop, usage: { input_tokens: 10, cache_read_input_tokens: 1000 * (t + 1), cache_creation_input_tokens: 0, output_tokens: 5 } });
    const first = push({ type: 'assistant', message: message([{ type: 'tool_use', id: `toolu_read_${t}`, name: 'Read', input: { file_path: `/workspace/demo/src/file-${t}.ts` } }], 'tool_use') });
    const second = push({ type: 'assistant', message: message([{ type: 'tool_use', id: `toolu_edit_${t}`, name: 'Edit', input: { file_path: `/workspace/demo/src/changed-${t}.ts`, old_string: 'a', new_string: 'b' } }], 'tool_use') });
    // The first call's result hangs off its own line, beside the chain; the second's continues it.
    parent = first;
    push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_read_${t}`, content: `contents ${t} ${'x'.repeat(big)}` }] }, toolUseResult: { type: 'text' } });
    parent = second;
    push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_edit_${t}`, content: 'edited' }] } });
    push({ type: 'assistant', message: { ...message([{ type: 'text', text: `answer ${t}` }], 'end_turn'), id: `msg_${t}_answer` } });
  }
  lines.push({ type: 'last-prompt', lastPrompt: `request ${turns - 1}: fix the parser`, sessionId: SESSION });
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}
