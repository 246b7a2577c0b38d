import type { EntryKind, Outcome, Role } from './entry.js';
import { FLAGS } from './entry.js';
import type { SizeKind } from './size/request-size.js';

/** How an EntryStore packs an entry's small facts into numbers. */
export const KINDS: readonly EntryKind[] = ['unknown', 'header', 'message', 'compaction', 'branch-summary', 'context', 'state'];
export const ROLES: ReadonlyArray<Role | undefined> = [undefined, 'user', 'assistant', 'toolResult', 'other'];
export const OUTCOMES: ReadonlyArray<Outcome | undefined> = [undefined, 'complete', 'toolUse', 'truncated', 'error', 'aborted', 'injected', 'unknown'];
// Plain objects, not Maps: packing reads three of these per line, and a property load is cheaper.
export const KIND_CODE = Object.fromEntries(KINDS.map((kind, code) => [kind, code])) as Record<EntryKind, number>;
const ROLE_CODES = Object.fromEntries(ROLES.map((role, code) => [String(role), code])) as Record<string, number>;
const OUTCOME_CODES = Object.fromEntries(OUTCOMES.map((outcome, code) => [String(outcome), code])) as Record<string, number>;

/** Every SizeKind, in the order their codes (index + 1) are stored in EntryStore.sizeKinds; 0 is none. */
export const SIZE_KINDS: readonly SizeKind[] = ['text', 'thinking', 'toolCall', 'toolResult', 'image', 'document', 'other', 'signature'];

/** A bit of EntryStore.sizeKinds beside the code: the entry's bytes are of several kinds, in EntryColumns.sizeParts. */
export const SIZE_PARTS = 0x80;
export const SIZE_KIND_MASK = 0x7f;

export function sizeKindCode(kind: SizeKind | undefined): number {
  return kind === undefined ? 0 : SIZE_KINDS.indexOf(kind) + 1;
}

export function roleCode(role: Role | undefined): number {
  return role === undefined ? 0 : ROLE_CODES[role]!;
}

export function outcomeCode(outcome: Outcome | undefined): number {
  return outcome === undefined ? 0 : OUTCOME_CODES[outcome]!;
}

/**
 * Bits of an entry's `info` word. Flag bits follow Entry's FLAGS order from FLAG_SHIFT. The
 * entry's own pointer (a handful of distinct strings per format) is a string code in the top bits.
 */
export const KIND_MASK = 0x7;
export const ROLE_SHIFT = 3;
export const OUTCOME_SHIFT = 6;
export const FLAG_SHIFT = 10;
/** The flag bits' own mask, before the shift. */
export const FLAG_BITS = (1 << FLAGS.length) - 1;
export const HAS_CALLS = 1 << 19;
export const HAS_RESULTS = 1 << 20;
export const POINTER_SHIFT = 21;
export const POINTER_CODES = 1 << (32 - POINTER_SHIFT);

/** Role codes, for model code that reads columns. */
export const USER = 1;
export const ASSISTANT = 2;
export const TOOL_RESULT = 3;

/** `parentRef` for a root (`parentId: null`); -1 means the field is absent. */
export const NULL_REF = -2;


/** The info-word bit of one of Entry's yes/no facts. */
export function flagMask(name: (typeof FLAGS)[number]): number {
  return 1 << (FLAG_SHIFT + FLAGS.indexOf(name));
}
