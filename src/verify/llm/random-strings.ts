import { redacted, type SecretRule } from './secret-rule.js';

/** Shorter runs are ids and names as often as keys; this long, mixed and random, they are keys far more often. */
const MIN_LENGTH = 32;
/** The longest stretch between separators ("/", "+", "_", "-"): paths and file names are made of short ones. */
const MIN_STRETCH = 16;
/** Random text changes class (upper, lower, digit) at about 6 steps in 10; a random key at fewer than 3 almost never. */
const MIN_CHANGES = 0.3;

/**
 * A long random string with no prefix and no name before it ("Here you go: 9fQ2…"): upper case, lower case and
 * digits mixed the way random text mixes them, over a long stretch. Hex (hashes, UUIDs) has one case and is left, and
 * so are identifiers, paths and file names, which change class only between words, and the public things of this
 * shape: hashes after "sha256-" or "SHA256:", and SSH public keys. Runs last, after every named shape.
 */
export const RANDOM_STRINGS: SecretRule[] = [
  {
    pattern: /(?<![\w+/=.-])[A-Za-z0-9+/_-]{32,}={0,2}(?![\w+/=-])/g,
    mask(match, _, at, input) {
      if (/^sha(?:1|256|384|512)-|^AAAA[A-Z]3NzaC1/.test(match)) return undefined;
      if (/(?:sha(?:1|256|384|512)|md5):$/i.test(input.slice(Math.max(0, at - 7), at))) return undefined;
      return isRandom(match.replace(/=+$/, '')) ? redacted('random string') : undefined;
    },
  },
];

function isRandom(text: string): boolean {
  if (text.length < MIN_LENGTH) return false;
  if (text.split(/[/+_-]/).some((stretch) => stretch.length >= MIN_STRETCH && mixesLikeRandom(stretch))) return true;
  // Base64 (an AWS secret key) may hold "/" or "+" often enough to leave no long stretch: then it is judged whole,
  // unless a part of it is a word, as the folders of a path are.
  if (/[_-]/.test(text)) return false;
  const parts = text.split(/[/+]/);
  const word = (part: string) => part === '' || (part.length >= 4 && /^(?:[A-Z]?[a-z]+|[A-Z]+|\d+)$/.test(part));
  return !parts.some(word) && mixesLikeRandom(parts.join(''));
}

function mixesLikeRandom(stretch: string): boolean {
  const counts = [0, 0, 0];
  let changes = 0;
  let previous = -1;
  for (let i = 0; i < stretch.length; i++) {
    const code = stretch.charCodeAt(i);
    const kind = code >= 65 && code <= 90 ? 0 : code >= 97 && code <= 122 ? 1 : 2;
    counts[kind]!++;
    if (previous !== -1 && kind !== previous) changes++;
    previous = kind;
  }
  return counts[0]! >= 3 && counts[1]! >= 3 && counts[2]! >= 2 && changes >= MIN_CHANGES * (stretch.length - 1);
}
