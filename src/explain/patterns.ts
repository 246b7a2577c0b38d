import { catalogue, type CatalogueEntry } from './catalogue.js';

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
}

/**
 * Ids are whatever providers and agents put there: `toolu_01…`, `call_…|fc_…`, Kimi's
 * `functions.read:3`. A sentence's full stop right after one is not part of it.
 */
const ID = `[^\\s,'"\`\\\\{}<>[\\]]+`;
const INDEX = '(\\d+|N)';
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
};

interface Compiled {
  entry: CatalogueEntry;
  pattern: RegExp;
  names: string[];
}

function compile(entry: CatalogueEntry): Compiled {
  const names: string[] = [];
  let source = '';
  let last = 0;
  for (const found of entry.text.matchAll(/\{(\w+)\}/g)) {
    const name = found[1]!;
    const group = PLACEHOLDERS[name];
    if (group === undefined) throw new Error(`catalogue ${entry.ref}: unknown placeholder {${name}}`);
    source += escape(entry.text.slice(last, found.index)) + group;
    names.push(name);
    last = found.index + found[0].length;
  }
  source += escape(entry.text.slice(last));
  return { entry, pattern: new RegExp(source), names };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const compiled = catalogue.map(compile);

/** The first catalogue text found in `text` (entries are ordered most specific first). */
export function matchCatalogue(text: string): Match | undefined {
  for (const { entry, pattern, names } of compiled) {
    const found = pattern.exec(text);
    if (found === null) continue;
    const match: Match = { entry, matched: found[0], ids: [] };
    names.forEach((name, k) => {
      const value = found[k + 1]!;
      if (name === 'N') match.messageIndex = indexOf(value);
      else if (name === 'M') match.blockIndex = indexOf(value);
      else if (name === 'i' && match.messageIndex === undefined) match.messageIndex = indexOf(value);
      else if (name === 'id' || name === 'ids') for (const id of value.split(/, ?/)) addId(match.ids, id);
    });
    return match;
  }
  return undefined;
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
