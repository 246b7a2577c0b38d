import { UserError } from '../errors.js';

/**
 * A JSON document read with the span (string offsets) of every value, so a settings file can be
 * edited by splicing text: what the user wrote around our hooks (comments, key order, spacing)
 * stays exactly as it was. It is read as the agent reads it (JsonSyntax), so a file the agent
 * would not take is refused rather than edited into something it still will not take.
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

/**
 * What an agent's parser takes beyond JSON.parse: comments (Gemini CLI strips them with
 * strip-json-comments first), trailing commas; and what it makes of a key given twice: the last
 * one counts (JSON.parse), or the file is an error (serde's derived structs, Codex).
 */
export interface JsonSyntax {
  reader: string;
  comments: boolean;
  trailingCommas: boolean;
  duplicateKeys: 'last' | 'refuse';
}

/** JSON.parse's reading: Claude Code, Copilot CLI. */
export const JSON_PARSE: JsonSyntax = { reader: 'JSON.parse', comments: false, trailingCommas: false, duplicateKeys: 'last' };

/**
 * Parses `text` as `syntax` reads it: whitespace is JSON's four characters only (U+00A0 is not
 * one), and a byte order mark is refused, as every one of these agents' parsers refuses it. A
 * syntax error names the file, line and column.
 */
export function parseJsonc(text: string, path: string, syntax: JsonSyntax = JSON_PARSE): JsonNode {
  const parser = new Parser(text, path, syntax);
  if (text.charCodeAt(0) === 0xfeff) parser.fail(`a byte order mark, which ${syntax.reader} does not read`);
  parser.skipBlank();
  const root = parser.value();
  parser.skipBlank();
  if (parser.at < text.length) parser.fail('text after the end of the document');
  return root;
}

/** The member of an object node the agent sees under `key`: the last one, as JSON.parse keeps it. */
export function memberOf(node: JsonObject, key: string): JsonMember | undefined {
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i]!.key === key) return node.members[i];
  return undefined;
}

const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const WHITESPACE = /[ \t\n\r]+/y;
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//y;

class Parser {
  at: number;

  constructor(
    private readonly text: string,
    private readonly path: string,
    private readonly syntax: JsonSyntax,
  ) {
    this.at = 0;
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
    this.skipBlank();
    if (this.text[this.at] !== '}') {
      for (;;) {
        if (this.text[this.at] !== '"') this.fail('expected a quoted key or }');
        const start = this.at;
        const key = this.string();
        if (this.syntax.duplicateKeys === 'refuse' && node.members.some((member) => member.key === key)) {
          this.at = start;
          this.fail(`the key ${JSON.stringify(key)} a second time, which ${this.syntax.reader} refuses`);
        }
        this.skipBlank();
        if (this.text[this.at] !== ':') this.fail('expected : after a key');
        this.at++;
        this.skipBlank();
        node.members.push({ key, start, value: this.value() });
        this.skipBlank();
        if (this.text[this.at] === '}') break;
        if (this.text[this.at] !== ',') this.fail('expected , or }');
        this.at++;
        this.skipBlank();
        if (this.text[this.at] === '}' && this.trailingComma()) break;
      }
    }
    this.at++;
    node.end = this.at;
    return node;
  }

  private array(): JsonArray {
    const node: JsonArray = { kind: 'array', start: this.at, end: 0, items: [] };
    this.at++;
    this.skipBlank();
    if (this.text[this.at] !== ']') {
      for (;;) {
        node.items.push(this.value());
        this.skipBlank();
        if (this.text[this.at] === ']') break;
        if (this.text[this.at] !== ',') this.fail('expected , or ]');
        this.at++;
        this.skipBlank();
        if (this.text[this.at] === ']' && this.trailingComma()) break;
      }
    }
    this.at++;
    node.end = this.at;
    return node;
  }

  /** At a closing bracket right after a comma: fine where the agent takes trailing commas. */
  private trailingComma(): true {
    if (!this.syntax.trailingCommas) this.fail(`a comma before ${this.text[this.at]}, which ${this.syntax.reader} does not read`);
    return true;
  }

  private string(): string {
    const match = this.take(STRING);
    if (match === undefined) this.fail('an unterminated or invalid string');
    return JSON.parse(match) as string;
  }

  /** Whitespace, and comments where the agent takes them. */
  skipBlank(): void {
    for (;;) {
      if (this.take(WHITESPACE) !== undefined) continue;
      if (this.text.startsWith('//', this.at) || this.text.startsWith('/*', this.at)) {
        if (!this.syntax.comments) this.fail(`a comment, which ${this.syntax.reader} does not read`);
        if (this.take(COMMENT) !== undefined) continue;
      }
      return;
    }
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
