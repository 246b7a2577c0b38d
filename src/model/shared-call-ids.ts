import type { Entry } from './entry.js';

/**
 * A result names its call by the same id text, parsed from another line: a second copy of every
 * call id (about 48 bytes each, on every result a huge file holds). The calls of the latest
 * assistant message are remembered, and a result that names one of them keeps that call's string.
 */
export class SharedCallIds {
  private recent = new Map<string, string>();
  /** The message the remembered calls belong to (lines of one message share a group). */
  private group: string | undefined;

  note(entry: Entry): void {
    if (entry.toolCalls !== undefined) {
      if (entry.group === undefined || entry.group !== this.group) this.recent = new Map();
      this.group = entry.group;
      for (const call of entry.toolCalls) if (call.id !== undefined) this.recent.set(call.id, call.id);
    }
    for (const result of entry.toolResults ?? []) {
      const shared = result.callId === undefined ? undefined : this.recent.get(result.callId);
      if (shared !== undefined) result.callId = shared;
    }
  }
}
