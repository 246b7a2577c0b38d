import { Entry, positionalId } from '../../model/entry.js';
import type { ReplaySemantics } from '../../model/transcript.js';
import { isObject } from '../json.js';

/** A request is one conversation in order: each item follows the one before it, named by its place. */
export function itemEntry(index: number, line: number, pointer: string): Entry {
  const entry = new Entry(index, line);
  entry.id = positionalId(index);
  entry.linksToPrevious = true;
  entry.kind = 'state';
  entry.pointer = pointer;
  return entry;
}

/** An item the provider receives as part of the conversation. */
export function sent(entry: Entry): Entry {
  entry.kind = 'message';
  entry.inContext = true;
  return entry;
}

/** A request holds no header and no tree: only the pairing and content rules have anything to judge. */
export function requestSemantics(overrides: Partial<ReplaySemantics>): ReplaySemantics {
  return { duplicateIds: 'last', resultsBesidePath: false, header: false, resultOrder: false, resultNames: false, blankTextRejected: false, ...overrides };
}

/** Text that holds nothing to read. */
export function isBlank(text: unknown): boolean {
  return typeof text === 'string' && text.trim() === '';
}

/** The text of string content or of a list of text parts, for the judge. */
export function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content) if (isObject(part) && typeof part.text === 'string') parts.push(part.text);
  return parts.join('\n');
}

/** What an added result says, so a person reading the dataset knows it was not the tool. */
export const MISSING_RESULT_TEXT = 'No result: the tool call was interrupted; transcript-doctor added this error result so the conversation is accepted.';

/** What a blank user message becomes (the placeholder OpenClaw writes). */
export const BLANK_USER_TEXT = '(continue)';

/** The block a pointer ending in `/<n>` names. */
export function lastIndexOf(pointer: string): number {
  return Number(pointer.slice(pointer.lastIndexOf('/') + 1));
}

/** Items and parts past these are rare enough to get their pointer made afresh. */
const CACHED_ITEMS = 512;
const CACHED_PARTS = 64;

/**
 * The pointers of one list's items and their parts. They repeat from line to line: each is made
 * once and shared, so a line spares building them, and the string table that codes them finds
 * them by a hash they already carry.
 */
export class Pointers {
  private readonly items: string[] = [];
  private readonly parts = new Map<string, string[][]>();

  constructor(private readonly list: string) {}

  /** `<list>/<i>`. */
  item(i: number): string {
    if (i >= CACHED_ITEMS) return `${this.list}/${i}`;
    return (this.items[i] ??= `${this.list}/${i}`);
  }

  /** `<list>/<i>/<member>/<k>`. */
  part(i: number, member: string, k: number): string {
    if (i >= CACHED_ITEMS || k >= CACHED_PARTS) return `${this.item(i)}/${member}/${k}`;
    let byItem = this.parts.get(member);
    if (byItem === undefined) this.parts.set(member, (byItem = []));
    const row = (byItem[i] ??= []);
    return (row[k] ??= `${this.item(i)}/${member}/${k}`);
  }
}

const byList = new Map<string, Pointers>();

/** The shared pointers of a list (a handful: `/messages`, `/input`, `/contents`, and those inside batch lines). */
export function pointersOf(list: string): Pointers {
  let pointers = byList.get(list);
  if (pointers === undefined) byList.set(list, (pointers = new Pointers(list)));
  return pointers;
}
