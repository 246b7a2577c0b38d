/** Small builders for Copilot CLI `events.jsonl` lines in tests: invented content, in the client's key order. */

export type Line = Record<string, any>;

export const SESSION_ID = '5b0c6e2a-91d4-4f3e-8a27-3c9d1e7f4b60';

export interface Call {
  id: string;
  name: string;
  /** The output, or undefined while the tool runs (no completion is written). */
  output?: string;
}

/** A session written event by event: each event names the one before it, with an increasing time, so files built twice are identical. */
export class Session {
  readonly lines: Line[] = [];
  private clock = 0;
  private previous: string | null = null;

  constructor(readonly model = 'gpt-4.1') {
    this.event('session.start', { sessionId: SESSION_ID, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.102', startTime: this.time(), selectedModel: model, context: { cwd: '/home/user/project' } });
  }

  private time(): string {
    this.clock += 1;
    return new Date(Date.UTC(2026, 10, 26, 6, 0, 0) + this.clock * 100).toISOString();
  }

  event(type: string, data: Line, extra: Line = {}): Line {
    const id = `00000000-0000-4000-8000-${String(this.lines.length + 1).padStart(12, '0')}`;
    const line: Line = { type, data, id, timestamp: this.time(), parentId: this.previous, ...extra };
    this.previous = id;
    this.lines.push(line);
    return line;
  }

  user(text: string): this {
    this.event('user.message', { content: text, messageId: `msg-${this.lines.length}` });
    return this;
  }

  /** One response: turn start, the message with its calls, each call started, the finished ones completed, turn end. */
  turn(text: string, calls: Call[] = [], extra: Line = {}): this {
    this.event('assistant.turn_start', { turnId: '0' }, extra);
    const toolRequests = calls.map((call) => ({ toolCallId: call.id, name: call.name, arguments: { command: 'ls' }, type: 'function' }));
    this.event('assistant.message', { messageId: `reply-${this.lines.length}`, model: this.model, content: text, toolRequests }, extra);
    for (const call of calls) this.event('tool.execution_start', { toolCallId: call.id, toolName: call.name, arguments: { command: 'ls' } }, extra);
    for (const call of calls) if (call.output !== undefined) this.complete(call.id, call.output, extra);
    if (calls.every((call) => call.output !== undefined)) this.event('assistant.turn_end', { turnId: '0' }, extra);
    return this;
  }

  complete(callId: string, output: string, extra: Line = {}): this {
    this.event('tool.execution_complete', { toolCallId: callId, model: this.model, success: true, result: { content: output } }, extra);
    return this;
  }

  text(): string {
    return this.lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
  }
}
