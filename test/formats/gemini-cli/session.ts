/** Small builders for Gemini CLI session lines in tests: invented content, in the client's key order. */

export type Line = Record<string, any>;

export const SESSION_ID = '3f9c2a71-5b8e-4d06-9a1c-7e2b4f6d8a90';
const PROJECT_HASH = '5d41402abc4b2a76b9719d911017c592e2b7f4c1a9d3e5f60718293a4b5c6d7e';

let clock = 0;

/** A fresh, increasing time for each record, so files built twice are identical. */
export function resetClock(): void {
  clock = 0;
}

function at(): string {
  clock += 1;
  return new Date(Date.UTC(2026, 2, 9, 14, 0, 0) + clock * 250).toISOString();
}

export const metadata = (): Line => ({ sessionId: SESSION_ID, projectHash: PROJECT_HASH, startTime: at(), lastUpdated: at(), kind: 'main' });
export const touched = (): Line => ({ $set: { lastUpdated: at() } });
export const context = (id = 'c0ffee00c0ffee00c0ffee00c0ffee00'): Line => ({ id, timestamp: at(), type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n</session_context>' }] });
export const user = (id: string, text: string): Line => ({ id, timestamp: at(), type: 'user', content: [{ text }] });
export const info = (id: string, text: string): Line => ({ id, timestamp: at(), type: 'info', content: text });
export const answer = (id: string, text: string): Line => ({ id, timestamp: at(), type: 'gemini', content: text, thoughts: [], model: 'gemini-2.5-pro' });

export interface ToolCall {
  id: string;
  name: string;
  /** The output, or undefined while the tool runs. */
  output?: string;
}

/** A model message with tool calls, as `recordToolCalls` writes it: a call with an output has its `functionResponse` result. */
export function calling(id: string, calls: ToolCall[], text = ''): Line {
  return {
    id,
    timestamp: at(),
    type: 'gemini',
    content: text,
    thoughts: [],
    model: 'gemini-2.5-pro',
    toolCalls: calls.map((call) => ({
      id: call.id,
      name: call.name,
      args: { dir_path: '.' },
      ...(call.output === undefined ? {} : { result: [{ functionResponse: { id: call.id, name: call.name, response: { output: call.output } } }] }),
      status: call.output === undefined ? 'executing' : 'success',
      timestamp: at(),
    })),
  };
}

/** A user message holding function responses, as the client writes the responses it sends back (and later sends twice). */
export function responses(id: string, calls: ToolCall[]): Line {
  return { id, timestamp: at(), type: 'user', content: calls.map((call) => ({ functionResponse: { id: call.id, name: call.name, response: { output: call.output ?? '' } } })) };
}

/** The history a resume writes back (`$set.messages`): calls as content parts, their responses in a `<id>_response` user message. */
export function rewritten(messages: Line[]): Line {
  return { $set: { messages } };
}

export const rewind = (id: string): Line => ({ $rewindTo: id });

export function jsonl(lines: Line[]): string {
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}
