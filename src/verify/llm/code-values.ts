/**
 * Whether the value after `password =`, `token:` or `Authorization:` is code, prose or a placeholder rather than a
 * secret: a keyword or type (`password: string`, `token = await …`), a reference (`$TOKEN`, `%s`, `process.env.KEY`),
 * a placeholder (`sk-ant-...`, `<api-key>`, `OPENAI_API_KEY`), a call or index (`getToken(…)`, `os.environ[…]`), a
 * variable named after the secret (`apiKey`, `user_password`), or a common English word (`the token: it expires`).
 * Anything else is taken as a secret, however short or plain: a password with no digit is still a password.
 */
export function looksLikeCode(value: string, name: string, next: string): boolean {
  if (next === '(' || next === '[' || next === '<') return true;
  if (isPlaceholder(value)) return true;
  const bare = value.replace(/[.,:;!?]+$/, '');
  if (bare === '') return true;
  if (bare.startsWith('$') || bare.startsWith('%')) return true;
  if (WORDS.has(bare.toLowerCase())) return true;
  // A dotted path is code (`config.db.password`), unless a part of it is random or it is a Vault token (`s.…`,
  // `hvb.…`): their bodies can read as a name, lower case or short as they are.
  if (/^[A-Za-z_$][\w$]*(?:[?!]?\.[A-Za-z_$][\w$]*)+$/.test(bare) && !bare.split('.').some(isRandomPart) && !VAULT_TOKEN.test(bare)) return true;
  if (isPlaceholder(bare)) return true;
  return namedAfter(bare, name);
}

/**
 * Placeholders in docs and examples ("sk-ant-...", "your-key", "<api-key>", "xxxx") and names of the variable that
 * holds the secret ("OPENAI_API_KEY"): quoted or not, these say where a secret goes, not what it is.
 */
export function isPlaceholder(value: string): boolean {
  return /\.\.\.|\u2026/.test(value) || /^your[-_]/i.test(value) || /^(?:x{3,}|\*{3,})$/i.test(value) || /^<[^>]*>$/.test(value) || /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value);
}

/** Vault's service, batch and recovery tokens, old (`s.`, `b.`, `r.`) and current (`hvs.`, `hvb.`, `hvr.`). */
const VAULT_TOKEN = /^(?:hv)?[sbr]\.[\w-]{8,}$/;

/** 16 or more letters and digits with both in them: no identifier part a person would name. */
function isRandomPart(part: string): boolean {
  return /^[A-Za-z0-9]{16,}$/.test(part) && /\d/.test(part) && /[A-Za-z]/.test(part);
}

/**
 * A quoted text with spaces after `password:` or `secret =` that reads as a message for people (a label, an error, a
 * hint) rather than a passphrase: it ends as a sentence does, holds a format placeholder, or uses the words such
 * messages are made of ("Password is required", "Enter your password", "Token expired").
 */
export function isMessage(value: string): boolean {
  if (/[.!?:\u2026]$/.test(value.trim())) return true;
  if (/\{\{|\{\d*\}|%[sd(]/.test(value)) return true;
  return value
    .toLowerCase()
    .split(/\s+/)
    .some((word) => MESSAGE_WORDS.has(word.replace(/^[("]+|[),;"]+$/g, '')));
}

/**
 * Whether a word after "the password is" looks like a credential rather than prose ("the token is valid"): letters
 * and digits together, a capital inside a lower-case word, a symbol with some length, six or more digits, or a length
 * no English word has.
 */
export function credentialLike(value: string): boolean {
  if (/\d/.test(value) && /[A-Za-z]/.test(value) && value.length >= 4) return true;
  if (/[a-z][A-Z]/.test(value) && value.length >= 6) return true;
  if (/[!@#$%^&*+=~|\\/]/.test(value) && /[A-Za-z0-9]/.test(value) && value.length >= 8) return true;
  if (/^\d{6,}$/.test(value)) return true;
  return value.length >= 20;
}

/** `apiKey` for api_key, `userPassword` or `user_password` for password: the last words of the value spell the name. */
function namedAfter(value: string, name: string): boolean {
  if (!/^[A-Za-z_]+$/.test(value)) return false;
  const words = value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_]+/)
    .filter(Boolean);
  const target = name.toLowerCase().replace(/[_-]/g, '');
  for (let k = 1; k <= words.length; k++) if (words.slice(-k).join('') === target) return true;
  return false;
}

const WORDS = new Set([
  // keywords, literals and types of the languages agents write
  'null', 'none', 'nil', 'undefined', 'true', 'false', 'await', 'new', 'function', 'async', 'lambda', 'this', 'self',
  'super', 'typeof', 'return', 'yield', 'const', 'let', 'var', 'def', 'required', 'optional', 'string', 'str', 'number',
  'int', 'integer', 'float', 'double', 'bool', 'boolean', 'any', 'unknown', 'object', 'bytes', 'void', 'never', 'char',
  // short English words that follow "token:" or "password:" in prose
  'a', 'an', 'the', 'it', 'is', 'are', 'was', 'be', 'and', 'or', 'not', 'no', 'to', 'of', 'in', 'on', 'for', 'with',
  'you', 'your', 'we', 'our', 'i', 'my', 'they', 'their', 'that', 'which', 'if', 'see', 'use', 'set', 'missing',
  'invalid', 'expired', 'empty', 'n/a',
]);

const MESSAGE_WORDS = new Set([
  'enter', 'your', 'please', 'must', 'invalid', 'incorrect', 'required', 'wrong', 'expired', 'missing', 'least', 'characters',
  'confirm', 'forgot', 'reset', 'change', 'new', 'current', 'show', 'hide', 'type', 'the', 'is', 'are', 'be', 'has',
  'have', 'was', 'not', 'cannot', "can't", 'does', "doesn't", "don't", 'should', 'will', 'for', 'of', 'to', 'and', 'or',
  'with', 'this', 'that', 'here', 'no', 'too', 'match', 'matches', 'valid', 'error', 'failed', 'field', 'placeholder',
]);
