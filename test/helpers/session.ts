/**
 * Builds pi v3 transcripts for tests: each call appends one entry whose parent is the previous
 * entry unless told otherwise, so a test reads like the conversation it describes.
 */

type Json = Record<string, unknown>;

export interface EntryOptions {
  id?: string;
  /** Parent id; `null` for a root, `false` to leave the field out. */
  parent?: string | null | false;
  extra?: Json;
}

export interface CallSpec {
  id: string;
  name?: string;
  args?: Json;
  extra?: Json;
}

export function call(id: string, name = 'read', args: Json = { path: 'notes.md' }, extra: Json = {}): Json {
  return { type: 'toolCall', id, name, arguments: args, ...extra };
}

export function text(value: string): Json {
  return { type: 'text', text: value };
}

let clock = Date.UTC(2026, 2, 2, 9, 0, 0);

export class Session {
  readonly lines: string[] = [];
  private counter = 0;
  last: string | null = null;

  constructor(header: Json | false = {}) {
    if (header !== false) {
      this.lines.push(JSON.stringify({ type: 'session', version: 3, id: 'test-session', timestamp: iso(), cwd: '/workspace/demo', ...header }));
    }
  }

  entry(body: Json, options: EntryOptions = {}): this {
    this.counter += 1;
    const id = options.id ?? this.counter.toString(16).padStart(8, '0');
    const parent = options.parent === undefined ? this.last : options.parent;
    const line: Json = { type: body.type ?? 'message', id };
    if (parent !== false) line.parentId = parent;
    line.timestamp = iso();
    Object.assign(line, body, options.extra);
    this.lines.push(JSON.stringify(line));
    this.last = id;
    return this;
  }

  message(message: Json, options?: EntryOptions): this {
    return this.entry({ type: 'message', message: { ...message, timestamp: clock } }, options);
  }

  user(content: unknown = 'please check my notes', options?: EntryOptions): this {
    return this.message({ role: 'user', content }, options);
  }

  assistant(content: unknown[], stopReason = 'stop', options?: EntryOptions & { message?: Json }): this {
    return this.message(
      {
        role: 'assistant',
        content,
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 },
        stopReason,
        ...(stopReason === 'error' || stopReason === 'aborted' ? { errorMessage: 'Request was aborted' } : {}),
        ...options?.message,
      },
      options,
    );
  }

  /** An assistant turn that makes these calls and stops for tool use. */
  calls(...calls: Json[]): this {
    return this.assistant([text('Let me look.'), ...calls], 'toolUse');
  }

  result(callId: string, toolName: string | null = 'read', options?: EntryOptions & { message?: Json }): this {
    const message: Json = { role: 'toolResult', toolCallId: callId, content: [text('ok')], isError: false, ...options?.message };
    if (toolName !== null) message.toolName = toolName;
    return this.message(message, options);
  }

  synthetic(callId: string, toolName = 'read', options?: EntryOptions): this {
    return this.result(callId, toolName, {
      ...options,
      message: {
        isError: true,
        content: [text('[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair.')],
        details: { openclawSyntheticMissingToolResult: true, reason: 'missing_tool_result' },
      },
    });
  }

  reply(value = 'Done.'): this {
    return this.assistant([text(value)]);
  }

  raw(line: string): this {
    this.lines.push(line);
    return this;
  }

  jsonl(): string {
    return this.lines.map((line) => line + '\n').join('');
  }
}

function iso(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}
