/** Builds small Qwen Code sessions record by record, in the envelope Qwen Code 0.24.4 writes. */
export class QwenSession {
  readonly records: Array<Record<string, unknown>> = [];
  private time = Date.parse('2026-11-20T09:00:00.000Z');

  constructor(
    private readonly model = 'qwen3-coder-plus',
    /** The `contextWindowSize` Qwen Code writes on each response, when given. */
    private readonly window?: number,
  ) {}

  private get windowField(): Record<string, unknown> {
    return this.window === undefined ? {} : { contextWindowSize: this.window };
  }

  private add(type: string, fields: Record<string, unknown>, parent?: string | null): string {
    const uuid = `00000000-0000-4000-8000-${String(this.records.length + 1).padStart(12, '0')}`;
    this.time += 1000;
    const previous = this.records.at(-1)?.uuid as string | undefined;
    this.records.push({ uuid, parentUuid: parent === undefined ? (previous ?? null) : parent, sessionId: 'a1b2c3d4-0000-4000-8000-000000000001', timestamp: new Date(this.time).toISOString(), type, cwd: '/work/app', version: '0.24.4', ...fields });
    return uuid;
  }

  user(text: string, parent?: string | null, subtype?: string): string {
    return this.add('user', { ...(subtype === undefined ? {} : { subtype }), message: { role: 'user', parts: [{ text }] } }, parent);
  }

  calls(ids: string[], name = 'read_file', parent?: string): string {
    return this.add('assistant', { model: this.model, ...this.windowField, message: { role: 'model', parts: ids.map((id) => ({ functionCall: { id, name, args: { file_path: 'a.txt' } } })) } }, parent);
  }

  answer(text: string, parent?: string): string {
    return this.add('assistant', { model: this.model, ...this.windowField, message: { role: 'model', parts: [{ text }] } }, parent);
  }

  result(id: string, name = 'read_file', parent?: string): string {
    return this.add('tool_result', { message: { role: 'user', parts: [{ functionResponse: { id, name, response: { output: 'ok' } } }] }, toolCallResult: { callId: id, status: 'success' } }, parent);
  }

  system(subtype: string, systemPayload: unknown, parent?: string): string {
    return this.add('system', { subtype, systemPayload }, parent);
  }

  text(): string {
    return this.records.map((record) => `${JSON.stringify(record)}\n`).join('');
  }
}
