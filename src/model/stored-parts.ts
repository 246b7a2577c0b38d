import type { ToolCallRef, ToolResultRef } from './entry.js';
import type { IdTable } from './id-table.js';

/**
 * A tool call as read back from an EntryStore. Its id is decoded when read: most readers (the
 * rules that look for partial, non-canonical or badly named calls) never read it, and decoding
 * every id of a huge file would be most of what reading its calls costs. Absent facts are
 * undefined fields, so every call has one shape.
 */
export class StoredCall implements ToolCallRef {
  name: string | undefined;
  pointer: string;
  blockIndex: number;
  partial: true | undefined;
  anonymous: true | undefined;
  missing: ToolCallRef['missing'];
  changes: string[] | undefined;
  conflict: string | undefined;

  constructor(
    private readonly ids: IdTable,
    private readonly ref: number,
    fields: Omit<ToolCallRef, 'id'>,
  ) {
    this.name = fields.name;
    this.pointer = fields.pointer;
    this.blockIndex = fields.blockIndex;
    this.partial = fields.partial;
    this.anonymous = fields.anonymous;
    this.missing = fields.missing;
    this.changes = fields.changes;
    this.conflict = fields.conflict;
  }

  get id(): string | undefined {
    return this.ref === -1 ? undefined : this.ids.text(this.ref);
  }

  toJSON(): ToolCallRef {
    return { id: this.id, name: this.name, pointer: this.pointer, blockIndex: this.blockIndex, partial: this.partial, anonymous: this.anonymous, missing: this.missing, changes: this.changes, conflict: this.conflict };
  }
}

/** A tool result as read back from an EntryStore; its call id is decoded when read. */
export class StoredResult implements ToolResultRef {
  pointer: string;
  name: string | undefined;
  namePointer: string | undefined;
  synthetic: boolean;
  anonymous: true | undefined;
  changes: string[] | undefined;
  conflict: string | undefined;

  constructor(
    private readonly ids: IdTable,
    private readonly ref: number,
    fields: Omit<ToolResultRef, 'callId'>,
  ) {
    this.pointer = fields.pointer;
    this.name = fields.name;
    this.namePointer = fields.namePointer;
    this.synthetic = fields.synthetic;
    this.anonymous = fields.anonymous;
    this.changes = fields.changes;
    this.conflict = fields.conflict;
  }

  get callId(): string | undefined {
    return this.ref === -1 ? undefined : this.ids.text(this.ref);
  }

  toJSON(): ToolResultRef {
    return { callId: this.callId, pointer: this.pointer, name: this.name, namePointer: this.namePointer, synthetic: this.synthetic, anonymous: this.anonymous, changes: this.changes, conflict: this.conflict };
  }
}
