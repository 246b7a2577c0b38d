import { UserError } from '../errors.js';

/**
 * A JSON document read with the span (string offsets) of every value, so a settings file can be
 * edited by splicing text: what the user wrote around our hooks (comments, key order, spacing,
 * trailing commas, which Gemini CLI's settings accept) stays exactly as it was.
 */
export type JsonNode = JsonObject | JsonArray | JsonScalar;

export interface JsonObject {
  kind: 'object';
  start: number;
  /** Just past the closing brace. */
  end: number;
  members: JsonMember[];
}

export interface JsonMember {
  key: string;
  /** Where the key's opening quote is. */
  start: number;
  value: JsonNode;
}

export interface JsonArray {
  kind: 'array';
  start: number;
  end: number;
  items: JsonNode[];
}

export interface JsonScalar {
  kind: 'scalar';
  start: number;
  end: number;
  value: string | number | boolean | null;
}

/** Parses `text` (JSON with // and /* comments and trailing commas); a syntax error names the file, line and column. */
export function parseJsonc(text: string, path: string): JsonNode {
  const parser = new Parser(text, path);
  parser.skipBlank();
  const root = parser.value();
  parser.skipBlank();
  if (parser.at < text.length) parser.fail('text after the end of the document');
  return root;
}

/** The value of a member of an object node, if present. */
export function memberOf(node: JsonObject, key: string): JsonMember | undefined {
  return node.members.find((member) => member.key === key);
}

const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const BLANK = /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\//y;

class Parser {
  at: number;

  constructor(
    private readonly text: string,
    private readonly path: string,
  ) {
    // A byte order mark is kept in the text and stepped over here.
    this.at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  value(): JsonNode {
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    const start = this.at;
    if (c === '"') {
      const value = this.string();
      return { kind: 'scalar', start, end: this.at, value };
    }
    const match = this.take(LITERAL);
    if (match === undefined) this.fail(c === undefined ? 'the document ends too early' : `unexpected ${JSON.stringify(c)}`);
    return { kind: 'scalar', start, end: this.at, value: JSON.parse(match) as JsonScalar['value'] };
  }

  private object(): JsonObject {
    const node: JsonObject = { kind: 'object', start: this.at, end: 0, members: [] };
    this.at++;
    for (;;) {
      this.skipBlank();
      if (this.text[this.at] === '}') break;
      if (this.text[this.at] !== '"') this.fail('expected a quoted key or }');
      const start = this.at;
      const key = this.string();
      this.skipBlank();
      if (this.text[this.at] !== ':') this.fail('expected : after a key');
      this.at++;
      this.skipBlank();
      node.members.push({ key, start, value: this.value() });
      this.skipBlank();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] !== '}') this.fail('expected , or }');
    }
    this.at++;
    node.end = this.at;
    return node;
  }

  private array(): JsonArray {
    const node: JsonArray = { kind: 'array', start: this.at, end: 0, items: [] };
    this.at++;
    for (;;) {
      this.skipBlank();
      if (this.text[this.at] === ']') break;
      node.items.push(this.value());
      this.skipBlank();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] !== ']') this.fail('expected , or ]');
    }
    this.at++;
    node.end = this.at;
    return node;
  }

  private string(): string {
    const match = this.take(STRING);
    if (match === undefined) this.fail('an unterminated or invalid string');
    return JSON.parse(match) as string;
  }

  /** Whitespace and comments. */
  skipBlank(): void {
    while (this.take(BLANK) !== undefined);
  }

  /** The match of a sticky pattern here, stepped over; undefined when it does not match or matches nothing. */
  private take(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    if (match === null || match[0].length === 0) return undefined;
    this.at += match[0].length;
    return match[0];
  }

  fail(what: string): never {
    const before = this.text.slice(0, this.at);
    const line = before.split('\n').length;
    const column = this.at - before.lastIndexOf('\n');
    throw new UserError(`${this.path} is not valid JSON (line ${line}, column ${column}: ${what}); fix it or move it away — nothing was changed`);
  }
}
