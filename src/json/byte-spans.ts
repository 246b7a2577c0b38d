/**
 * Places in the UTF-8 bytes of a JSON text, found without parsing it: where the value a JSON
 * Pointer names stands, and where a string value's UTF-16 positions fall. An edit of one member
 * can then be written as a splice of the line's bytes (see Encoder.spans), every other byte kept,
 * without decoding the line or building its value. The text must be valid JSON (a line that was
 * parsed when the file was read); anything this does not follow gives undefined, and the caller
 * edits the parsed line instead.
 */

/** Bytes `start` to `end` of a text. */
export interface ByteSpan {
  start: number;
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const INDEX = /^(0|[1-9]\d*)$/;

/**
 * The span of the value at `pointer` (RFC 6901). Undefined when a step is missing, when an object
 * on the way has the key twice (JSON.parse keeps the last; a splice must not guess) or a key
 * spelled with escapes, or when the text is not what this reads.
 */
export function valueSpan(bytes: Buffer, pointer: string): ByteSpan | undefined {
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  const steps = pointer === '' ? [] : pointer.slice(1).split('/').map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
  let start = skipWhitespace(bytes, 0);
  for (const step of steps) {
    const c = bytes[start];
    const found = c === OPEN_BRACE ? member(bytes, start, Buffer.from(step, 'utf8')) : c === OPEN_BRACKET && INDEX.test(step) ? item(bytes, start, Number(step)) : undefined;
    if (found === undefined) return undefined;
    start = found;
  }
  const end = skipValue(bytes, start);
  return end === -1 ? undefined : { start, end };
}

/** Where the value of the object's only member named `key` starts; undefined for none, or two. */
function member(bytes: Buffer, open: number, key: Buffer): number | undefined {
  let at = skipWhitespace(bytes, open + 1);
  if (bytes[at] === CLOSE_BRACE) return undefined;
  let found: number | undefined;
  for (;;) {
    if (bytes[at] !== QUOTE) return undefined;
    const keyEnd = skipString(bytes, at);
    if (keyEnd === -1) return undefined;
    const raw = bytes.subarray(at + 1, keyEnd - 1);
    if (raw.includes(BACKSLASH)) return undefined;
    const colon = skipWhitespace(bytes, keyEnd);
    if (bytes[colon] !== COLON) return undefined;
    const value = skipWhitespace(bytes, colon + 1);
    if (raw.equals(key)) {
      if (found !== undefined) return undefined;
      found = value;
    }
    const end = skipValue(bytes, value);
    if (end === -1) return undefined;
    at = skipWhitespace(bytes, end);
    if (bytes[at] === CLOSE_BRACE) return found;
    if (bytes[at] !== COMMA) return undefined;
    at = skipWhitespace(bytes, at + 1);
  }
}

/** Where item `index` of the array starts. */
function item(bytes: Buffer, open: number, index: number): number | undefined {
  let at = skipWhitespace(bytes, open + 1);
  if (bytes[at] === CLOSE_BRACKET) return undefined;
  for (let k = 0; ; k++) {
    if (k === index) return at;
    const end = skipValue(bytes, at);
    if (end === -1) return undefined;
    at = skipWhitespace(bytes, end);
    if (bytes[at] !== COMMA) return undefined;
    at = skipWhitespace(bytes, at + 1);
  }
}

/** One past the value that starts at `at`; -1 when the text ends first. Scalars run to the next delimiter. */
function skipValue(bytes: Buffer, at: number): number {
  const c = bytes[at];
  if (c === QUOTE) return skipString(bytes, at);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    let end = at;
    while (end < bytes.length && !isDelimiter(bytes[end]!)) end++;
    return end === at ? -1 : end;
  }
  let depth = 0;
  for (let pos = at; pos < bytes.length; pos++) {
    const b = bytes[pos];
    if (b === QUOTE) {
      const end = skipString(bytes, pos);
      if (end === -1) return -1;
      pos = end - 1;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return pos + 1;
    }
  }
  return -1;
}

/** One past the string that opens at `at`: its end is the first quote after an even run of backslashes. */
function skipString(bytes: Buffer, at: number): number {
  let quote = bytes.indexOf(QUOTE, at + 1);
  for (;;) {
    if (quote === -1) return -1;
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = bytes.indexOf(QUOTE, quote + 1);
  }
}

const isDelimiter = (b: number) => b === COMMA || b === CLOSE_BRACE || b === CLOSE_BRACKET || b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

function skipWhitespace(bytes: Buffer, at: number): number {
  let pos = at;
  while (pos < bytes.length && (bytes[pos] === 0x20 || bytes[pos] === 0x0a || bytes[pos] === 0x0d || bytes[pos] === 0x09)) pos++;
  return pos;
}

/**
 * The bytes of the string at `span` that `trimmedText(value, head, tail, stub)` (formats/slim-edits)
 * replaces with its stub, for the same cut: its head and tail counted in UTF-16 code units, each
 * cut stepped off a surrogate pair's middle the same way. Undefined when the trim keeps the text
 * whole. Head and tail keep their bytes as written (escapes included).
 */
export function trimmedBytes(bytes: Buffer, span: ByteSpan, head: number, tail: number): ByteSpan | undefined {
  const length = walkUnits(bytes, span, -1).units;
  if (head + tail >= length) return undefined;
  const last = span.end - 1;
  const at = (unit: number) => (unit < length ? walkUnits(bytes, span, unit) : { units: length, start: last, surrogate: 0 });
  let end = head;
  if (end > 0 && at(end - 1).surrogate === HIGH) end--;
  let start = length - tail;
  let kept = at(start);
  if (start < length && kept.surrogate === LOW) kept = at(++start);
  return { start: at(end).start, end: kept.start };
}

const HIGH = 1;
const LOW = 2;

/**
 * Walks the string at `span` code unit by code unit: with `stop` -1, to its end, counting them;
 * else to unit `stop`, giving where it starts and whether it is a HIGH or LOW surrogate. The
 * second unit of a four-byte character starts where the first does: a cut is never put there.
 */
function walkUnits(bytes: Buffer, span: ByteSpan, stop: number): { units: number; start: number; surrogate: number } {
  const last = span.end - 1;
  let units = 0;
  for (let pos = span.start + 1; pos < last; ) {
    const b = bytes[pos]!;
    if (b === BACKSLASH) {
      const escaped = bytes[pos + 1] === 0x75;
      if (units === stop) {
        const code = escaped ? Number.parseInt(bytes.toString('latin1', pos + 2, pos + 6), 16) : 0;
        return { units, start: pos, surrogate: code >= 0xd800 && code <= 0xdbff ? HIGH : code >= 0xdc00 && code <= 0xdfff ? LOW : 0 };
      }
      units += 1;
      pos += escaped ? 6 : 2;
    } else if (b >= 0xf0) {
      if (units === stop || units + 1 === stop) return { units: stop, start: pos, surrogate: units === stop ? HIGH : LOW };
      units += 2;
      pos += 4;
    } else {
      if (units === stop) return { units, start: pos, surrogate: 0 };
      units += 1;
      pos += b < 0x80 ? 1 : b < 0xe0 ? 2 : 3;
    }
  }
  return { units, start: last, surrogate: 0 };
}
