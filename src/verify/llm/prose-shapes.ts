import { credentialLike, isMessage, looksLikeCode } from './code-values.js';
import { redacted, type SecretRule } from './secret-rule.js';

/**
 * Secrets told in a sentence: "my password is Tulip-Rocket-88", "the token was Jq3n…", "the secret for prod is …".
 * The same words start ordinary sentences ("the token is valid", "the password is stored in the vault"), so a single
 * word is masked only when it looks like a credential (see credentialLike); a quoted phrase is masked unless it reads
 * as a message. Linear: anchored on the secret word, every scan after it is bounded.
 */
export const PROSE_SHAPES: SecretRule[] = [
  {
    pattern:
      /\b((?:password|passphrase|passcode|passwd|token|secret|(?:api|access|secret|private|auth|license|master|encryption)[ _-]?key)s?(?:[ \t]+(?:for|of|on|to)(?:[ \t]+[\w.@:/-]{1,60}){1,3}?)?[ \t]+(?:is|was|will[ \t]+be|would[ \t]+be)[ \t]+(?:now[ \t]+|still[ \t]+|just[ \t]+)?)(?:(["'`])([^"'`\n]{1,200})\2|([^\s"'`<>()[\]{},;\\]+))/gi,
    mask(match, [prefix, quote, quoted, bare], at, input) {
      if (quoted !== undefined) {
        const plain = /\s/.test(quoted) ? isMessage(quoted) : !credentialLike(quoted);
        if (plain || quoted.startsWith('[redacted')) return undefined;
        return `${prefix}${quote}${redacted('secret')}${quote}`;
      }
      const value = bare!.replace(/[.,:;!?]+$/, '');
      const rest = bare!.slice(value.length);
      if (value === '' || !credentialLike(value) || looksLikeCode(value, 'secret', input.charAt(at + match.length))) return undefined;
      return `${prefix}${redacted('secret')}${rest}`;
    },
  },
];
