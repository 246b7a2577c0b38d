import { parseJson } from './parse.js';
import { writeJson } from './write.js';

/**
 * Parses a JSON text, lets `mutate` edit the value in place, and writes it back changing only
 * what the edit changed: every untouched value keeps its exact spelling (64-bit integers,
 * `1e400`, `-0`, escapes), its key order, duplicate keys and whitespace. Nesting depth is
 * limited by memory alone. Throws a SyntaxError when the text is not JSON.
 */
export function rewriteJson(text: string, mutate: (value: unknown) => void): { text: string; value: unknown } {
  const { root, nodeOf } = parseJson(text);
  const value = root.value;
  mutate(value);
  return { text: writeJson(text, root, value, nodeOf), value };
}
