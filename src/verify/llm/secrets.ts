/**
 * Each rule starts with a literal prefix or a lookbehind that only lets a match begin where a token begins, and its
 * variable parts cannot overlap one another, so every pattern runs in linear time on long inputs (a 100 KB base64
 * blob, minified code) instead of re-scanning the rest of a word from each of its characters.
 * Rules run in order; the specific key shapes come first so that "Bearer sk-…" or "token=ghp_…" count once.
 */
interface Rule {
  pattern: RegExp;
  /** The replacement, or undefined to leave a match that only looked like a secret. */
  mask: (match: string, groups: (string | undefined)[]) => string | undefined;
}

const redacted = (kind: string): string => `[redacted ${kind}]`;
const whole = (kind: string) => (): string => redacted(kind);

const RULES: Rule[] = [
  {
    // A complete block (its body ends at the first "-----"), else a truncated one: header plus the base64 that follows,
    // with newlines either real or still JSON-escaped.
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[^-]*(?:-{1,4}[^-]+)*-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|(?:[A-Za-z0-9+/=\s]|\\[nr])*)/g,
    mask: whole('private key'),
  },
  { pattern: /(?<![\w-])sk-ant-[\w-]{20,}/g, mask: whole('anthropic key') },
  // Plain "sk-" is also kebab-case; a random key always has a digit somewhere in its 20+ characters, a word rarely does.
  { pattern: /(?<![\w-])sk-(?=[\w-]*\d)[\w-]{20,}/g, mask: whole('openai key') },
  { pattern: /(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}/g, mask: whole('slack token') },
  { pattern: /(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{20,})/g, mask: whole('github token') },
  { pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, mask: whole('aws access key') },
  { pattern: /(?<![\w-])AIza[\w-]{35}(?![\w-])/g, mask: whole('google api key') },
  { pattern: /(?<![\w-])eyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]*/g, mask: whole('jwt') },
  { pattern: /(\b[Bb]earer\s+)(?=[\w.~+/-]*\d)[\w.~+/-]{16,}=*/g, mask: (_, [prefix]) => `${prefix}${redacted('bearer token')}` },
  { pattern: /(?<![\w+.-])([a-z][\w+.-]*:\/\/[^\s/:@]+:)[^\s/@]+@/gi, mask: (_, [prefix]) => `${prefix}${redacted('url password')}@` },
  {
    // Assignments in env files, URLs, YAML, JSON and code. To spare code like `token = getToken()` or
    // `password: string`, a bare value needs a letter and a digit; a quoted one is a literal, so any 4+ characters.
    pattern:
      /(?<![\w-])([\w-]*?(password|passwd|secret|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key)["']?\s*(?::=|[:=])\s*)(?!=)(?:"([^"\s]{4,})"|'([^'\s]{4,})'|([^\s"'`<>()[\]{},;&=][^\s"'`<>()[\]{},;&]{5,}))/gi,
    mask(_, [prefix, name, double, single, bare]) {
      const kind = assignmentKind(name ?? '');
      if (double !== undefined || single !== undefined) {
        const quote = double === undefined ? "'" : '"';
        return (double ?? single ?? '').startsWith('[redacted') ? undefined : `${prefix}${quote}${redacted(kind)}${quote}`;
      }
      return /[A-Za-z]/.test(bare ?? '') && /\d/.test(bare ?? '') ? `${prefix}${redacted(kind)}` : undefined;
    },
  },
];

function assignmentKind(name: string): string {
  const lower = name.toLowerCase();
  if (lower.startsWith('pass')) return 'password';
  if (lower === 'token' || lower === 'secret') return lower;
  return 'key';
}

/**
 * Masks obvious secrets before transcript text is sent anywhere: API keys (sk-…, sk-ant-…, sk-proj-…, xoxb-/xoxp-,
 * ghp_/gho_/github_pat_, AKIA…, AIza…), Bearer tokens, JWTs, PEM private key blocks, credentials in URLs and
 * password=/token=/api_key= assignments. Replaces each with "[redacted <kind>]" and returns the count.
 */
export function maskSecrets(text: string): { text: string; masked: number } {
  let masked = 0;
  let result = text;
  for (const rule of RULES) {
    result = result.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      // Without named groups, replace() passes the captures, then the offset and the whole input.
      const replacement = rule.mask(match, rest.slice(0, -2) as (string | undefined)[]);
      if (replacement === undefined) return match;
      masked++;
      return replacement;
    });
  }
  return { text: result, masked };
}
