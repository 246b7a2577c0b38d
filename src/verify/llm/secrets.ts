import { CONTEXT_SHAPES } from './context-shapes.js';
import { HEADER_SHAPES } from './header-shapes.js';
import { KEY_SHAPES } from './key-shapes.js';
import { PROSE_SHAPES } from './prose-shapes.js';
import { RANDOM_STRINGS } from './random-strings.js';
import type { SecretRule } from './secret-rule.js';
import { TOOL_SHAPES } from './tool-shapes.js';

/**
 * Key shapes first, so that "Bearer sk-…" or "token=ghp_…" are masked (and counted) once, under the key's name; the
 * shapes that need more guessing after those that need less, and a long random string with no name last of all.
 */
const RULES: SecretRule[] = [...KEY_SHAPES, ...CONTEXT_SHAPES, ...TOOL_SHAPES, ...HEADER_SHAPES, ...PROSE_SHAPES, ...RANDOM_STRINGS];

/**
 * Masks the secrets our own patterns know (docs/secrets.md lists them): vendor keys and tokens by their shape, private
 * key blocks, JWTs, webhook URLs, credentials by their context (Authorization headers, URL user info, CLI flags,
 * password=/token=/api_key= assignments, cookies, a tool's own syntax, "my password is …"), and long random strings.
 * Replaces each with "[redacted <kind>]" and returns the count. Synchronous
 * and linear in the text's length; maskForJudge() adds secretlint on top before anything is sent.
 */
export function maskSecrets(text: string): { text: string; masked: number } {
  let masked = 0;
  let result = text;
  for (const rule of RULES) {
    result = result.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      // Without named groups, replace() passes the captures, then the offset and the whole input.
      const input = rest.at(-1) as string;
      const at = rest.at(-2) as number;
      const replacement = rule.mask(match, rest.slice(0, -2) as (string | undefined)[], at, input);
      if (replacement === undefined) return match;
      masked++;
      return replacement;
    });
  }
  return { text: result, masked };
}
