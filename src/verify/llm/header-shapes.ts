import { redacted, type SecretRule } from './secret-rule.js';

/** Set-Cookie attributes: what follows them is not a cookie. */
const COOKIE_ATTRIBUTES = new Set(['path', 'domain', 'expires', 'max-age', 'samesite', 'secure', 'httponly', 'priority', 'partitioned', 'version', 'comment']);

/**
 * Cookies: every value of a Cookie or Set-Cookie header, and of curl's --cookie / -b, is a session credential
 * whatever its name (sessionid, csrftoken, _session). Names and Set-Cookie attributes are kept, so the judge still
 * sees which cookies were sent. Bounded: a header's text is read up to 4,000 characters of its line.
 */
export const HEADER_SHAPES: SecretRule[] = [
  { pattern: /(?<![\w-])((?:set-)?cookie["']?[ \t]*:[ \t]*)([^\r\n"'`<>\\]{1,4000})/gi, mask: (_, [prefix, pairs]) => maskedPairs(prefix!, pairs!) },
  {
    pattern: /(?<![\w-])((?:curl\b[^\n]{0,300}?[ \t](?:-b|--cookie)|--cookie)[ \t=]+["']?)((?<=["'])[^"'\n]{1,4000}|[^\s"']{1,4000})/g,
    mask: (_, [prefix, pairs]) => maskedPairs(prefix!, pairs!),
  },
];

/** `a=1; b=2; Path=/` with each cookie's value masked; undefined when there was none to mask. */
function maskedPairs(prefix: string, pairs: string): string | undefined {
  let masked = false;
  const parts = pairs.split(';').map((part) => {
    const pair = /^(\s*([^=\s]+)\s*=\s*)(.*)$/.exec(part);
    if (pair === null) return part;
    const [, name, key, value] = pair as unknown as [string, string, string, string];
    if (COOKIE_ATTRIBUTES.has(key.toLowerCase()) || value.trim() === '' || value.startsWith('[redacted')) return part;
    masked = true;
    return `${name}${redacted('cookie')}${/\s+$/.exec(value)?.[0] ?? ''}`;
  });
  return masked ? `${prefix}${parts.join(';')}` : undefined;
}
