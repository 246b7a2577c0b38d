import type { JsonArray, JsonNode, JsonObject } from './jsonc.js';

/**
 * Text splices on a parsed settings file. Adding an element and removing it again gives back the
 * same text, so `hooks install` then `hooks uninstall` leaves the file byte for byte as it was.
 */

/** The indentation the file uses per level (what these agents write: two spaces), from its first indented line. */
export function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

/** The file's line ending: a Windows-edited file keeps CRLF in what is added to it. */
export function lineEnding(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** `value` as JSON laid out like the file, for a place whose line is indented by `indent`. */
export function render(value: unknown, unit: string, indent: string, eol = '\n'): string {
  return JSON.stringify(value, null, unit).replaceAll('\n', `${eol}${indent}`);
}

/**
 * Adds `element` (a rendered value, or `"key": value` for an object) as the last element of
 * `container`: on a line of its own in the indentation of its siblings, after a trailing comma
 * if the file has one, or inline when the container is written on one line.
 */
export function appendElement(text: string, container: JsonObject | JsonArray, element: (indent: string) => string): string {
  const elements = elementsOf(container);
  const unit = indentUnit(text);
  const eol = lineEnding(text);
  const last = elements.at(-1);
  if (last === undefined) {
    const outer = lineIndent(text, container.start);
    const inner = outer + unit;
    return splice(text, container.start + 1, container.end - 1, `${eol}${inner}${element(inner)}${eol}${outer}`);
  }
  const first = elements[0]!;
  const multiline = text.slice(container.start, first.start).includes('\n');
  const indent = multiline ? lineIndent(text, last.start) : lineIndent(text, container.start);
  const afterLast = skipBlank(text, last.end);
  if (text[afterLast] === ',') {
    // A trailing comma (JSONC): the new element goes after it and carries one of its own.
    return splice(text, afterLast + 1, afterLast + 1, `${multiline ? `${eol}${indent}` : ' '}${element(indent)},`);
  }
  return splice(text, last.end, last.end, `,${multiline ? `${eol}${indent}` : ' '}${element(indent)}`);
}

/** Removes element `index` of `container` with the separator that came with it: the inverse of appendElement. */
export function removeElement(text: string, container: JsonObject | JsonArray, index: number): string {
  const elements = elementsOf(container);
  const target = elements[index]!;
  if (index > 0) return splice(text, elements[index - 1]!.end, target.end, '');
  const next = elements[1];
  if (next !== undefined) return splice(text, target.start, next.start, '');
  return splice(text, container.start + 1, container.end - 1, '');
}

/** Replaces a value's text. */
export function replaceValue(text: string, node: JsonNode, replacement: string): string {
  return splice(text, node.start, node.end, replacement);
}

interface Element {
  start: number;
  end: number;
}

function elementsOf(container: JsonObject | JsonArray): Element[] {
  return container.kind === 'object' ? container.members.map((member) => ({ start: member.start, end: member.value.end })) : container.items;
}

function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/** Past whitespace and comments from `offset`. */
function skipBlank(text: string, offset: number): number {
  const blank = /(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/y;
  blank.lastIndex = offset;
  return offset + blank.exec(text)![0].length;
}

function splice(text: string, from: number, to: number, insert: string): string {
  return text.slice(0, from) + insert + text.slice(to);
}
