import { after, type SecretRule } from './secret-rule.js';

/**
 * Credentials in the syntax of one tool, with no telling name right before the value: command lines (redis-cli,
 * aws configure), a .pgpass line, and keys that are recognisable only beside their account id (a Twilio auth token
 * after its SID, a Heroku API key, a UUID, after the word heroku). Linear as in key-shapes.ts: anchored on a literal
 * or a token start, every scan between two anchors bounded.
 */
export const TOOL_SHAPES: SecretRule[] = [
  // redis-cli -a PASSWORD (also --pass), and the variable redis-cli reads instead.
  { pattern: /(?<![\w-])(redis-cli\b[^\n]{0,200}?[ \t](?:-a|--pass)[ \t]+["']?)(?![\s"'[-])[^\s"']+/g, mask: after('password') },
  { pattern: /(?<![\w-])(REDISCLI_AUTH[ \t]*=[ \t]*["']?)(?![\s"'[$])[^\s"']+/g, mask: after('password') },
  // aws configure set aws_secret_access_key VALUE (also with a profile prefix, and the session token).
  {
    pattern: /\b(aws[ \t]+configure[ \t]+set[ \t]+(?:[\w-]+\.)?(?:aws_)?(?:secret_access_key|session_token)[ \t]+["']?)(?![\s"'[$])[^\s"']+/g,
    mask: after('key'),
  },
  // ~/.pgpass: hostname:port:database:username:password, the port a number or "*".
  {
    pattern: /(?<![^\s"'`])((?:[A-Za-z*][\w.*-]*|\d{1,3}(?:\.\d{1,3}){3}):(?:\d{1,5}|\*):[\w.*-]+:[\w.*@-]+:)(?![\s[])[^\s"'`]+/g,
    mask: after('password'),
  },
  // An account SID (AC + 32 hex) and, within a few characters, the 32-hex auth token that goes with it.
  { pattern: /(\bAC[0-9a-f]{32}(?![\w-])[^\n]{0,60}?)(?<![\w-])[0-9a-f]{32}(?![\w-])/g, mask: after('twilio auth token') },
  {
    pattern: /(\bheroku\b[^\n]{0,80}?)(?<![\w-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\w-])/gi,
    mask: after('heroku api key'),
  },
];
