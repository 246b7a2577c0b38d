import { createHash } from 'node:crypto';
import type { IdShape } from './contract.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Characters of the hash that keeps renamed ids apart: 8 base-62 characters, about 47 bits. */
const HASH = 8;

/** The part of a stored id the provider is sent (see IdShape.callPart). */
export function sentPart(shape: IdShape, id: string, separator: string | undefined): string {
  if (!shape.callPart || separator === undefined) return id;
  const cut = id.indexOf(separator);
  return cut === -1 ? id : id.slice(0, cut);
}

/** Each shape's character class as one pattern for a whole id: a file holds tens of thousands of ids. */
const whole = new WeakMap<RegExp, RegExp>();

/** What is wrong with an id for a shape: its characters, its length, or nothing. */
export function idProblem(shape: IdShape, id: string): 'charset' | 'length' | undefined {
  if (id.length < shape.min || id.length > shape.max) return shape.char !== undefined && !charsOk(shape.char, id) ? 'charset' : 'length';
  return shape.char !== undefined && !charsOk(shape.char, id) ? 'charset' : undefined;
}

function charsOk(char: RegExp, id: string): boolean {
  let pattern = whole.get(char);
  if (pattern === undefined) whole.set(char, (pattern = new RegExp(`^(?:${char.source})*$`)));
  return pattern.test(id);
}

/**
 * An id in the shape, for one that is not: the id with every character the shape refuses
 * replaced (by `_` where allowed, else dropped), cut to leave room for a short hash of the whole
 * original, so two ids that sanitise alike stay apart and a repeat run writes the same bytes.
 * A shape too short for a readable part (Mistral's 9) gets the hash alone. `taken` ids are avoided.
 */
export function idForShape(shape: IdShape, id: string, taken: (candidate: string) => boolean): string {
  const underscore = shape.char === undefined || shape.char.test('_');
  let clean = '';
  for (const char of id) clean += shape.char === undefined || shape.char.test(char) ? char : underscore ? '_' : '';
  for (let n = 0; ; n++) {
    const hash = hashOf(n === 0 ? id : `${id}#${n}`, Math.min(HASH, shape.max));
    const room = shape.max - hash.length - (underscore ? 1 : 0);
    let candidate = room >= 4 && clean !== '' ? `${clean.slice(0, room)}${underscore ? '_' : ''}${hash}` : hashOf(n === 0 ? id : `${id}#${n}`, shape.max);
    if (candidate.length < shape.min) candidate += hashOf(`${id}/pad`, shape.min - candidate.length);
    if (!taken(candidate)) return candidate;
  }
}

function hashOf(seed: string, length: number): string {
  let out = '';
  for (let block = 0; out.length < length; block++) {
    for (const byte of createHash('sha256').update(`${seed}/${block}`).digest()) {
      if (out.length === length) break;
      out += ALNUM[byte % ALNUM.length];
    }
  }
  return out;
}
