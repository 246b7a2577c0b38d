import { catalogue } from './catalogue.js';
import type { CatalogueEntry } from './catalogue-entry.js';

/** What one catalogue text says about the request, read from a match. */
export interface Match {
  entry: CatalogueEntry;
  /** The text as matched, placeholders filled. */
  matched: string;
  /** The message (or item, or content) index the provider names, as it counts. */
  messageIndex?: number;
  blockIndex?: number;
  /** Every tool call id the text names, in order, once each. */
  ids: string[];
  /** The figures a size-family text quotes; empty for the others. */
  numbers: QuotedNumbers;
}

/** What a size-family error quotes, in the units its entry's `size` says (see size-catalogue.ts). */
export interface QuotedNumbers {
  /** Input tokens the provider counted. */
  tokens?: number;
  /** The answer room (max_tokens) asked on top of the input. */
  outputTokens?: number;
  /** The limit the text names: tokens, bytes, pixels, pages, a length or a count. */
  limit?: number;
  bytes?: number;
  /** The bytes (and limit) were given in megabytes, rounded to a tenth: known to ±0.05 MB. */
  approximate?: boolean;
  /** A string's length, or an array's (tool calls, tools, messages). */
  length?: number;
  images?: number;
  pages?: number;
  /** An image inside a tool result: its index in the result's content (the block index is the tool result's). */
  innerIndex?: number;
}

/**
 * Ids are whatever providers and agents put there: `toolu_01…`, `call_…|fc_…`, Kimi's
 * `functions.read:3`. A sentence's full stop right after one is not part of it.
 */
const ID = `[^\\s,'"\`\\\\{}<>[\\]]+`;
const INDEX = '(\\d+|N)';
/** A count as providers print it, with or without thousands separators. */
const COUNT = '(\\d{1,3}(?:,\\d{3})+|\\d+)';
const MEGABYTES = '(\\d+(?:\\.\\d+)?)';
const MB = 1024 * 1024;
const PLACEHOLDERS: Record<string, string> = {
  N: INDEX,
  M: INDEX,
  K: '(\\d+)',
  L: '(\\d+)',
  i: '(\\d+)',
  j: '(\\d+)',
  count: '(\\d+)',
  ordinal: '(\\d+)',
  type: '([A-Za-z_.]+)',
  id: `(${ID})`,
  ids: `(${ID}(?:, ?${ID})*)`,
  tokens: COUNT,
  output: COUNT,
  total: COUNT,
  limit: COUNT,
  bytes: COUNT,
  length: COUNT,
  images: COUNT,
  pages: COUNT,
  mb: MEGABYTES,
  limitMb: MEGABYTES,
  inner: '((?:\\.tool_result\\.content\\.\\d+)?)',
  path: '((?:\\.\\w+|\\[\\d+\\])*)',
};

interface Template {
  pattern: RegExp;
  names: string[];
}

interface Compiled extends Template {
  entry: CatalogueEntry;
  numbers?: Template;
}

function compile(entry: CatalogueEntry): Compiled {
  const numbers = entry.numbers === undefined ? undefined : template(entry.numbers, entry);
  return { entry, ...template(entry.text, entry), ...(numbers === undefined ? {} : { numbers }) };
}

function template(text: string, entry: CatalogueEntry): Template {
  const names: string[] = [];
  let source = '';
  let last = 0;
  for (const found of text.matchAll(/\{(\w+)\}/g)) {
    const name = found[1]!;
    const group = PLACEHOLDERS[name];
    if (group === undefined) throw new Error(`catalogue ${entry.ref}: unknown placeholder {${name}}`);
    source += escape(text.slice(last, found.index)) + group;
    names.push(name);
    last = found.index + found[0].length;
  }
  source += escape(text.slice(last));
  return { pattern: new RegExp(source, entry.anyCase === true ? 'i' : ''), names };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const compiled = catalogue.map(compile);

/** The first catalogue text found in `text` (entries are ordered most specific first). */
export function matchCatalogue(text: string): Match | undefined {
  for (const { entry, pattern, names, numbers } of compiled) {
    const found = pattern.exec(text);
    if (found === null) continue;
    const match: Match = { entry, matched: found[0], ids: [], numbers: {} };
    read(match, names, found);
    const figures = numbers?.pattern.exec(text);
    if (numbers !== undefined && figures !== null && figures !== undefined) read(match, numbers.names, figures);
    return match;
  }
  return undefined;
}

function read(match: Match, names: readonly string[], found: RegExpExecArray): void {
  const quoted = match.numbers;
  names.forEach((name, k) => {
    const value = found[k + 1]!;
    if (name === 'N') match.messageIndex = indexOf(value);
    else if (name === 'M') match.blockIndex = indexOf(value);
    else if (name === 'i' && match.messageIndex === undefined) match.messageIndex = indexOf(value);
    else if (name === 'id' || name === 'ids') for (const id of value.split(/, ?/)) addId(match.ids, id);
    else if (name === 'inner') setIf(quoted, 'innerIndex', value === '' ? undefined : countOf(value.slice(value.lastIndexOf('.') + 1)));
    else if (name === 'mb' || name === 'limitMb') {
      setIf(quoted, name === 'mb' ? 'bytes' : 'limit', megabytes(value));
      quoted.approximate = true;
    } else if (name in FIGURES) setIf(quoted, FIGURES[name]!, countOf(value));
  });
}

/** Which figure each counting placeholder fills ({total} is read past: the input and output are quoted apart). */
const FIGURES: Record<string, keyof QuotedNumbers> = {
  tokens: 'tokens',
  output: 'outputTokens',
  limit: 'limit',
  bytes: 'bytes',
  length: 'length',
  images: 'images',
  pages: 'pages',
};

function setIf(numbers: QuotedNumbers, key: keyof QuotedNumbers, value: number | undefined): void {
  if (value !== undefined) (numbers as Record<string, number>)[key] = value;
}

/** A count past 2^53 (pasted digits) is no count. */
function countOf(value: string): number | undefined {
  const count = Number(value.replace(/,/g, ''));
  return Number.isSafeInteger(count) ? count : undefined;
}

function megabytes(value: string): number | undefined {
  const count = Number(value);
  return Number.isFinite(count) && count < 1e9 ? Math.round(count * MB) : undefined;
}

/** Our own provider texts say `messages.N` where the index is unknown; an index past 2^53 (pasted digits) names no message either. */
function indexOf(value: string): number | undefined {
  const index = Number(value);
  return value === 'N' || !Number.isSafeInteger(index) ? undefined : index;
}

function addId(ids: string[], raw: string): void {
  const id = raw.replace(/\.+$/, '');
  if (id !== '' && id !== '(none)' && !ids.includes(id)) ids.push(id);
}
