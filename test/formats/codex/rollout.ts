/** Small builders for Codex rollout lines in tests: invented content, in Codex's key order. */

export type Line = Record<string, any>;

export const SESSION_ID = '7c0a3e52-91d4-4f6b-8a2e-5b9c1d0e7f34';
const CWD = '/workspace/sample';

let clock = 0;

/** A fresh, increasing time for each line, so files built twice are identical. */
export function resetClock(): void {
  clock = 0;
}

function at(): string {
  clock += 1;
  return new Date(Date.UTC(2026, 0, 5, 8, 0, 0) + clock * 250).toISOString();
}

export function line(type: string, payload: Line): Line {
  return { timestamp: at(), type, payload };
}

export const meta = (id = SESSION_ID): Line =>
  line('session_meta', { id, timestamp: '2026-01-05T08:00:00.000Z', cwd: CWD, originator: 'codex_cli_rs', cli_version: '0.63.0', instructions: null, source: 'cli' });
export const turnContext = (): Line => line('turn_context', { cwd: CWD, approval_policy: 'on-request', sandbox_policy: { type: 'read-only' }, model: 'gpt-5-codex', summary: 'auto' });
export const user = (text: string): Line => line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
export const userEvent = (text: string): Line => line('event_msg', { type: 'user_message', message: text, images: [] });
export const assistant = (text: string): Line => line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
export const reasoning = (): Line => line('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Planning**' }], content: null, encrypted_content: 'gAAAAABinventedForTests==' });
export const tokens = (): Line => line('event_msg', { type: 'token_count', info: null, rate_limits: null });
export const ghost = (): Line => line('response_item', { type: 'ghost_snapshot', ghost_commit: { id: 'abc123', parent: 'def456', preexisting_untracked_files: [], preexisting_untracked_dirs: [] } });

export type CallKind = 'function' | 'custom' | 'shell' | 'search';

export function call(kind: CallKind, id: string): Line {
  switch (kind) {
    case 'function':
      return line('response_item', { type: 'function_call', name: 'shell_command', arguments: '{"command":"ls"}', call_id: id });
    case 'custom':
      return line('response_item', { type: 'custom_tool_call', status: 'completed', call_id: id, name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' });
    case 'shell':
      return line('response_item', { type: 'local_shell_call', call_id: id, status: 'completed', action: { type: 'exec', command: ['bash', '-lc', 'ls'] } });
    case 'search':
      return line('response_item', { type: 'tool_search_call', call_id: id, status: 'completed', execution: 'client', arguments: { query: 'tools', limit: 3 } });
  }
}

/** The output type Codex answers each call kind with. */
export const OUTPUT_OF: Record<CallKind, string> = { function: 'function_call_output', custom: 'custom_tool_call_output', shell: 'function_call_output', search: 'tool_search_output' };

export function output(kind: CallKind, id: string): Line {
  if (kind === 'search') return line('response_item', { type: 'tool_search_output', call_id: id, status: 'completed', execution: 'client', tools: [] });
  return line('response_item', { type: OUTPUT_OF[kind], call_id: id, output: 'Exit code: 0\nOutput:\nok\n' });
}

/** One line per value; `{ torn }` stands for a line cut off mid-write, written as the text it holds. */
export function jsonl(lines: readonly Line[]): string {
  return lines.map((value) => (typeof value.torn === 'string' ? value.torn : JSON.stringify(value))).join('\n') + '\n';
}
