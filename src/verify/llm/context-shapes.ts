import { isMessage, isPlaceholder, looksLikeCode } from './code-values.js';
import { after, redacted, type SecretRule } from './secret-rule.js';

/**
 * Secrets known by what stands before them: an Authorization header, a URL's user info, a command-line flag, an
 * assignment. They run after the key shapes, so "Bearer sk-…" or "token=ghp_…" count once, and none of them matches a
 * value that starts with "[", so an earlier "[redacted …]" is never masked again. Linear time as in key-shapes.ts:
 * every pattern is anchored on a literal or a token start, and every scan between two literals is bounded.
 */
export const CONTEXT_SHAPES: SecretRule[] = [
  {
    // Whatever the scheme (Bearer, Basic, token, Digest…), the rest of an Authorization header is the credential. A word
    // followed by more text on the line is the scheme, never the value.
    pattern: /(?<![\w-])(authorization["']?[ \t]*[:=][ \t]*["']?)(?:([A-Za-z][\w-]*[ \t]+)|(?![A-Za-z][\w-]*[ \t]+\S))([^\s"'`<>[\](){},;]+)/gi,
    mask(match, [header, scheme, value], at, input) {
      if (looksLikeCode(value!, 'authorization', nextChar(match, at, input))) return undefined;
      const kind = /^bearer\s/i.test(scheme ?? '') ? 'bearer token' : /^basic\s/i.test(scheme ?? '') ? 'basic auth' : 'credential';
      return `${header}${scheme ?? ''}${redacted(kind)}`;
    },
  },
  {
    // Outside a header, "Bearer" is also a word of prose ("Bearer tokens expire"): a value needs a digit or some length.
    pattern: /\b([Bb]earer\s+)([\w.~+/-]+=*)/g,
    mask(match, [prefix, value], at, input) {
      const word = value!.replace(/[.]+$/, '').toLowerCase();
      if (PROSE_AFTER_BEARER.has(word) || looksLikeCode(value!, 'bearer', nextChar(match, at, input))) return undefined;
      return /\d/.test(value!) || value!.length >= 8 ? `${prefix}${redacted('bearer token')}` : undefined;
    },
  },
  {
    // "Basic authentication" is prose; real Basic credentials are base64 of "user:password".
    pattern: /\b(Basic\s+)([A-Za-z0-9+/]{6,}={0,2})(?![\w+/=])/g,
    mask: (_, [prefix, value]) => (isBasicCredential(value!) ? `${prefix}${redacted('basic auth')}` : undefined),
  },
  {
    // Docker's config.json keeps registry logins as "auth": base64("user:password").
    pattern: /("auth"\s*:\s*")([A-Za-z0-9+/]{8,}={0,2})(?=")/g,
    mask: after('registry login'),
  },
  {
    // scheme://user:password@host, also with an empty user (redis://:pw@) and with "@" inside the password: the host
    // starts after the last "@" before the path. A password may also hold one "/" (unescaped) when an "@" follows
    // before any other "/" or ":"; digits then "/" are a port and a path instead.
    pattern: /(?<![\w+.-])([a-z][\w+.-]*:\/\/[^\s/:@[]*:)(?!\[)(?:[^\s/]+|(?!\d+\/)[^\s/@:]*\/[^\s/@:]*)@/gi,
    mask: (_, [prefix]) => `${prefix}${redacted('url password')}@`,
  },
  {
    // curl -u user:password, --user user:password (but not docker's -u 1000:1000).
    pattern: /(?<![\w-])((?:-u|--user)[ \t=]+["']?([^\s:"'@/[]+):)([^\s"'[]+)/g,
    mask: (_, [prefix, user, password]) => (/^\d+$/.test(user!) && /^\d+$/.test(password!) ? undefined : `${prefix}${redacted('password')}`),
  },
  {
    // --password VALUE, --token VALUE (the "=" form is an assignment, below); a flag or a <placeholder> is not a value.
    pattern: /(?<![\w-])(--(?:password|passwd|token|api-key|apikey|secret|client-secret|auth-token|access-token)[ \t]+)(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"'`[<{\\-][^\s"'`\\]*))/g,
    mask(match, [prefix, double, single, bare], at, input) {
      if (bare !== undefined && looksLikeCode(bare, prefix!.replace(/[-\s]/g, ''), nextChar(match, at, input))) return undefined;
      const quote = double !== undefined ? '"' : single !== undefined ? "'" : '';
      return `${prefix}${quote}${redacted('password')}${quote}`;
    },
  },
  // sshpass -p PASSWORD, and mysql's -pPASSWORD written against the flag.
  { pattern: /\b(sshpass\s+-p[ \t]*["']?)(?!\[)[^\s"']+/g, mask: after('password') },
  { pattern: /(?<![\w-])(mysql(?:dump|admin)?\b[^\n]{0,200}?[ \t]-p)(?![\s"'[-])[^\s"']+/g, mask: after('password') },
  // ~/.netrc: machine HOST login USER password PASSWORD
  { pattern: /\b(login[ \t]+\S+[ \t]+password[ \t]+)(?!\[)\S+/g, mask: after('password') },
  {
    // Assignments in env files, URLs, YAML, JSON, connection strings and code (also SECRET_KEY_BASE, Laravel's APP_KEY,
    // ansible_become_pass; a bare PASS= is a test count as often as a password). A quoted value is a literal, and a
    // passphrase when it has spaces, unless it reads as a message; a bare one is a secret unless it reads as code.
    pattern:
      /(?<![\w-])([\w-]*?(password|passwd|passphrase|pwd|(?<=[A-Za-z0-9][_-])pass|secret|token|api[_-]?key|(?:private|access|account|subscription|signing|encryption|master|secret|client|app)[_-]?key)(?:[_-](?:base|value|b64|base64|hex|raw))?["']?[ \t]*(?::=|[:=])[ \t]*)(?!=)(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"'`<>()[\]{},;&=\\][^\s"'`<>()[\]{},;&\\]*))/gi,
    mask(match, [prefix, name, double, single, bare], at, input) {
      const kind = assignmentKind(name!);
      if (double !== undefined || single !== undefined) {
        const quote = double === undefined ? "'" : '"';
        const value = (double ?? single)!;
        if (value.startsWith('[redacted') || isPlaceholder(value) || (/\s/.test(value) && isMessage(value))) return undefined;
        return `${prefix}${quote}${redacted(kind)}${quote}`;
      }
      // PWD and OLDPWD in an environment dump are folders.
      if (kind === 'password' && name!.toLowerCase() === 'pwd' && /^[/~]/.test(bare!)) return undefined;
      return looksLikeCode(bare!, name!, nextChar(match, at, input)) ? undefined : `${prefix}${redacted(kind)}`;
    },
  },
];

const PROSE_AFTER_BEARER = new Set(['token', 'tokens', 'auth', 'authentication', 'authorization', 'scheme', 'schemes', 'header', 'headers', 'prefix', 'realm', 'credentials', 'credential', 'strategy', 'format', 'type', 'value']);

function nextChar(match: string, at: number, input: string): string {
  return input.charAt(at + match.length);
}

function isBasicCredential(value: string): boolean {
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(decoded) && decoded.indexOf(':') > 0;
}

function assignmentKind(name: string): string {
  const lower = name.toLowerCase();
  if (lower.startsWith('pass') || lower === 'pwd') return 'password';
  if (lower === 'token' || lower === 'secret') return lower;
  return 'key';
}
