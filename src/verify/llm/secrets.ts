import { CONTEXT_SHAPES } from './context-shapes.js';
import { KEY_SHAPES } from './key-shapes.js';
import type { SecretRule } from './secret-rule.js';

/** Key shapes first, so that "Bearer sk-…" or "token=ghp_…" are masked (and counted) once, under the key's name. */
const RULES: SecretRule[] = [...KEY_SHAPES, ...CONTEXT_SHAPES];

/**
 * Masks the secrets our own patterns know (docs/secrets.md lists them): vendor keys and tokens by their shape, private
 * key blocks, JWTs, webhook URLs, and credentials by their context (Authorization headers, URL user info, CLI flags,
 * password=/token=/api_key= assignments). Replaces each with "[redacted <kind>]" and returns the count. Synchronous
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
