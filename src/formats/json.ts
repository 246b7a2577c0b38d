/** Small guards for parsed JSON, and the content-block helpers both formats share (each writes Anthropic-style text blocks). */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value.timestamp` when it is a string, else `at`: a time the caller fixed, so a repeat run writes the same bytes. */
export function timestampOr(value: unknown, at: Date): string {
  return isObject(value) && typeof value.timestamp === 'string' ? value.timestamp : at.toISOString();
}

export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

const HIGH = /[\x80-\xff]/;

/**
 * A string from a line parsed from its bytes read as latin1 (see Decoder.decode's `latin1`), as
 * parsing its UTF-8 text gives it: its characters of 0x80 and above are UTF-8 bytes.
 */
export function utf8Of(text: string): string {
  return HIGH.test(text) ? Buffer.from(text, 'latin1').toString('utf8') : text;
}

/** A string of a line, as its UTF-8 text gives it when the line was read as latin1. */
export function textIn(text: string, latin1: boolean): string {
  return latin1 ? utf8Of(text) : text;
}

/** nonEmptyString of a value read as the line's UTF-8 text gives it. */
export type TextReader = (value: unknown) => string | undefined;

const nonEmptyUtf8: TextReader = (value) => {
  const found = nonEmptyString(value);
  return found === undefined ? undefined : utf8Of(found);
};

/** How a decoder reads the strings it keeps from a line read as latin1, or not. */
export function textReader(latin1: boolean): TextReader {
  return latin1 ? nonEmptyUtf8 : nonEmptyString;
}

/** A copy of an object whose string fields are read as UTF-8 (its nested values are left as they are). */
export function withUtf8Fields(value: Json): Json {
  const copy: Json = {};
  for (const key of Object.keys(value)) {
    const field = value[key];
    const read = typeof field === 'string' ? utf8Of(field) : field;
    // A `__proto__` field JSON.parse made is a field: defined, as assigning it would set the copy's prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: read, enumerable: true, writable: true, configurable: true });
    else copy[key] = read;
  }
  return copy;
}

/** A parsed value with every string in it, keys too, read as UTF-8: for the rare lines a decoder reads through and through. */
export function utf8Value(value: unknown): unknown {
  if (typeof value === 'string') return utf8Of(value);
  if (Array.isArray(value)) return value.map(utf8Value);
  if (!isObject(value)) return value;
  const copy: Json = {};
  for (const key of Object.keys(value)) {
    // Defined, not assigned: a `__proto__` field JSON.parse made is a field, not the copy's prototype.
    Object.defineProperty(copy, utf8Of(key), { value: utf8Value(value[key]), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** An ASCII character that is not whitespace: the text is not blank, whichever way it was read. */
const NOT_BLANK = /[^\t\n\v\f\r \x80-\xff]/;

/** Whitespace only (as trim sees it), for text from a line read as latin1 or not. */
export function isBlank(text: unknown, latin1 = false): boolean {
  if (typeof text !== 'string') return false;
  if (!latin1) return text.trim() === '';
  return !NOT_BLANK.test(text) && utf8Of(text).trim() === '';
}

/** Fields a text block may carry besides its text without holding anything a person wrote. */
const TEXT_BLOCK_FIELDS = new Set(['type', 'text', 'cache_control', 'citations']);

/**
 * A text block with nothing to read: its text is absent or whitespace, and it holds no other
 * field (a mangled `"tex]"` key still holds what was written, so it is not blank).
 */
export function isBlankTextBlock(block: unknown, latin1 = false): boolean {
  if (!isObject(block) || block.type !== 'text' || !(block.text === undefined || isBlank(block.text, latin1))) return false;
  for (const key in block) if (!TEXT_BLOCK_FIELDS.has(key)) return false;
  return true;
}

/** A line's time, when it carries a parseable `timestamp`. */
export function timeOf(value: Json): number | undefined {
  const time = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : NaN;
  return Number.isNaN(time) ? undefined : time;
}

/** Text blocks joined and the names of called tools, from message content (a string or a block list). */
export function contentText(content: unknown, isCall: (type: unknown) => boolean): { text: string; toolNames: string[] } {
  if (typeof content === 'string') return { text: content, toolNames: [] };
  const parts: string[] = [];
  const toolNames: string[] = [];
  if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (isCall(block.type) && typeof block.name === 'string') toolNames.push(block.name.trim());
    }
  }
  return { text: parts.join('\n'), toolNames };
}

/** Message content without its blank text blocks, or the placeholder when nothing else is left. */
export function fillBlankText(content: unknown, placeholder: string): unknown {
  if (!Array.isArray(content)) return placeholder;
  const kept = content.filter((block) => !isBlankTextBlock(block));
  return kept.length > 0 ? kept : [{ type: 'text', text: placeholder }];
}

/** A line as JSON text without its top-level `timestamp`: two writes of one entry differ only there. */
export function withoutTimestamp(value: unknown): string {
  if (!isObject(value)) return JSON.stringify(value);
  const { timestamp: _written, ...rest } = value;
  return JSON.stringify(rest);
}

/** Whether a message's last block is text ending in whitespace (Anthropic rejects that as the final assistant message). Reads one block. */
export function endsInWhitespace(content: readonly unknown[], latin1 = false): boolean {
  const last = content[content.length - 1];
  if (!isObject(last) || last.type !== 'text' || typeof last.text !== 'string' || last.text === '') return false;
  // An ASCII last character is the same either way; a UTF-8 byte read as latin1 stands for no ASCII one.
  const code = last.text.charCodeAt(last.text.length - 1);
  return (code === 32 || code === 10 || code === 13 || code === 9) && !isBlank(last.text, latin1);
}

/** A string member of a JSON object's text, found without parsing it (the line may be cut short). */
export function stringMember(text: string, key: string): string | undefined {
  const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(text);
  if (match === null) return undefined;
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return undefined;
  }
}
