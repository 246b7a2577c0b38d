import type { ArrayNode, ContainerNode, JsonNode, LeafNode, ObjectNode } from './node.js';

/** A parsed JSON text: the value as `JSON.parse` builds it, and the node of every value in it. */
export interface ParsedJson {
  root: JsonNode;
  /** Each object and array of the value, by identity, to the node it was parsed from. */
  nodeOf: Map<object, ContainerNode>;
}

const WHITESPACE = /[ \t\n\r]*/y;
const PLAIN_CHARS = /[^"\\\u0000-\u001f]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Parses JSON exactly as `JSON.parse` does (same grammar, same values, last duplicate key
 * wins), also keeping each value's span. Containers sit on an explicit stack, so nesting is
 * limited by memory, not by the call stack.
 */
export function parseJson(text: string): ParsedJson {
  const nodeOf = new Map<object, ContainerNode>();
  const stack: ContainerNode[] = [];
  // The key each open object is reading a value for, and where that key starts.
  const keys: string[] = [];
  const keyStarts: number[] = [];
  let pos = skipWhitespace(text, 0);

  const readKey = (at: number): number => {
    if (text.charCodeAt(at) !== QUOTE) fail(text, at, 'a string key');
    const leaf = readString(text, at);
    keys[stack.length - 1] = leaf.value as string;
    keyStarts[stack.length - 1] = at;
    const colon = skipWhitespace(text, leaf.end);
    if (text.charCodeAt(colon) !== COLON) fail(text, colon, "':'");
    return skipWhitespace(text, colon + 1);
  };

  for (;;) {
    let node: JsonNode;
    const c = text.charCodeAt(pos);
    if (c === OPEN_BRACE) {
      const object: ObjectNode = { kind: 'object', start: pos, end: -1, parent: undefined, index: -1, key: undefined, keyStart: -1, members: [], value: {} };
      nodeOf.set(object.value, object);
      pos = skipWhitespace(text, pos + 1);
      if (text.charCodeAt(pos) === CLOSE_BRACE) {
        object.end = ++pos;
        node = object;
      } else {
        stack.push(object);
        pos = readKey(pos);
        continue;
      }
    } else if (c === OPEN_BRACKET) {
      const array: ArrayNode = { kind: 'array', start: pos, end: -1, parent: undefined, index: -1, key: undefined, keyStart: -1, items: [], value: [] };
      nodeOf.set(array.value, array);
      pos = skipWhitespace(text, pos + 1);
      if (text.charCodeAt(pos) === CLOSE_BRACKET) {
        array.end = ++pos;
        node = array;
      } else {
        stack.push(array);
        continue;
      }
    } else {
      node = readScalar(text, pos);
      pos = node.end;
    }

    // Attach the finished value to its container; a closing bracket finishes that one in turn.
    for (;;) {
      const parent = stack[stack.length - 1];
      if (parent === undefined) {
        pos = skipWhitespace(text, pos);
        if (pos !== text.length) fail(text, pos, 'the end of the text');
        return { root: node, nodeOf };
      }
      node.parent = parent;
      if (parent.kind === 'object') {
        node.index = parent.members.length;
        node.key = keys[stack.length - 1]!;
        node.keyStart = keyStarts[stack.length - 1]!;
        parent.members.push(node);
        setMember(parent.value, node.key, node.value);
      } else {
        node.index = parent.items.length;
        parent.items.push(node);
        parent.value.push(node.value);
      }
      pos = skipWhitespace(text, pos);
      const next = text.charCodeAt(pos);
      if (next === COMMA) {
        pos = skipWhitespace(text, pos + 1);
        if (parent.kind === 'object') pos = readKey(pos);
        break;
      }
      if (next !== (parent.kind === 'object' ? CLOSE_BRACE : CLOSE_BRACKET)) fail(text, pos, parent.kind === 'object' ? "',' or '}'" : "',' or ']'");
      parent.end = ++pos;
      stack.pop();
      node = parent;
    }
  }
}

/** `JSON.parse` defines members as own data properties, so `__proto__` is a key, not the prototype. */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

function readScalar(text: string, pos: number): LeafNode {
  const c = text.charCodeAt(pos);
  if (c === QUOTE) return readString(text, pos);
  if (c === 0x74 && text.startsWith('true', pos)) return leaf(pos, pos + 4, true);
  if (c === 0x66 && text.startsWith('false', pos)) return leaf(pos, pos + 5, false);
  if (c === 0x6e && text.startsWith('null', pos)) return leaf(pos, pos + 4, null);
  NUMBER.lastIndex = pos;
  if (!NUMBER.test(text)) fail(text, pos, 'a JSON value');
  return leaf(pos, NUMBER.lastIndex, Number(text.slice(pos, NUMBER.lastIndex)));
}

function readString(text: string, pos: number): LeafNode {
  PLAIN_CHARS.lastIndex = pos + 1;
  PLAIN_CHARS.test(text);
  const at = PLAIN_CHARS.lastIndex;
  const c = text.charCodeAt(at);
  if (c === QUOTE) return leaf(pos, at + 1, text.slice(pos + 1, at));
  if (c !== BACKSLASH || at + 1 >= text.length) fail(text, at, 'the end of the string');
  return readEscapedString(text, pos, at);
}

/**
 * A string with escapes (code and logs are full of `\n`): its end is the first quote after an even
 * run of backslashes, and the built-in parser decodes (and checks) what lies between exactly.
 */
function readEscapedString(text: string, pos: number, from: number): LeafNode {
  let quote = text.indexOf('"', from);
  for (;;) {
    if (quote === -1) fail(text, text.length, 'the end of the string');
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) break;
    quote = text.indexOf('"', quote + 1);
  }
  const end = quote + 1;
  let value: string;
  try {
    value = JSON.parse(text.slice(pos, end)) as string;
  } catch {
    // Say where, in the whole text, the string went wrong (a control character, a bad escape).
    value = readStringSlowly(text, pos);
  }
  return leaf(pos, end, value);
}

/** Walks a string escape by escape, failing at the position a bad one is found. */
function readStringSlowly(text: string, pos: number): string {
  let at = pos + 1;
  for (;;) {
    PLAIN_CHARS.lastIndex = at;
    PLAIN_CHARS.test(text);
    at = PLAIN_CHARS.lastIndex;
    const c = text.charCodeAt(at);
    if (c === QUOTE) break;
    if (c !== BACKSLASH || at + 1 >= text.length) fail(text, at, 'the end of the string');
    at += 2;
  }
  return JSON.parse(text.slice(pos, at + 1)) as string;
}

function leaf(start: number, end: number, value: LeafNode['value']): LeafNode {
  return { kind: 'leaf', start, end, parent: undefined, index: -1, key: undefined, keyStart: -1, value };
}

function skipWhitespace(text: string, pos: number): number {
  // Transcript lines are compact: most places have no whitespace to skip.
  const c = text.charCodeAt(pos);
  if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return pos;
  WHITESPACE.lastIndex = pos;
  WHITESPACE.test(text);
  return WHITESPACE.lastIndex;
}

function fail(text: string, pos: number, expected: string): never {
  const found = pos >= text.length ? 'end of JSON input' : `token ${JSON.stringify(text[pos])}`;
  throw new SyntaxError(`Unexpected ${found} at position ${pos}: expected ${expected}`);
}
