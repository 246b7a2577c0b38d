import { after, redacted, whole, type SecretRule } from './secret-rule.js';

/**
 * Keys and tokens recognisable by their own shape, wherever they stand. Each pattern starts with a literal prefix, or
 * with a lookbehind that lets a match begin only where a token begins, and its parts cannot overlap, so each runs in
 * linear time on long inputs (a 1 MB base64 blob, minified code) instead of re-scanning a word from each character.
 * Vendor prefixes come from the vendors' own documentation of their token formats.
 */
export const KEY_SHAPES: SecretRule[] = [
  {
    // A complete block (its body ends at the first "-----"), else a truncated one: header plus the base64 that follows,
    // with newlines either real or still JSON-escaped. PGP's "PRIVATE KEY BLOCK" is the same shape.
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[^-]*(?:-{1,4}[^-]+)*-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|(?:[A-Za-z0-9+/=\s]|\\[nr])*)/g,
    mask: whole('private key'),
  },
  { pattern: /(?<![\w-])AGE-SECRET-KEY-1[0-9A-Z]{58}/g, mask: whole('age key') },
  { pattern: /(?<![\w-])sk-ant-[\w-]{20,}/g, mask: whole('anthropic key') },
  // Plain "sk-" is also kebab-case; a random key always has a digit somewhere in its 20+ characters, a word rarely does.
  { pattern: /(?<![\w-])sk-(?=[\w-]*\d)[\w-]{20,}/g, mask: whole('openai key') },
  { pattern: /(?<![\w-])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/g, mask: whole('stripe key') },
  { pattern: /(?<![\w-])whsec_[A-Za-z0-9+/=]{20,}/g, mask: whole('stripe webhook secret') },
  { pattern: /(?<![\w-])(?:xox[a-z](?:\.xox[a-z])?|xapp)-[A-Za-z0-9-]{10,}/g, mask: whole('slack token') },
  { pattern: /(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{20,})/g, mask: whole('github token') },
  { pattern: /(?<![\w-])gl(?:pat|dt|ptt|rt|cbt|ft|soat|oas)-[\w-]{20,}/g, mask: whole('gitlab token') },
  { pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, mask: whole('aws access key') },
  { pattern: /(?<![\w-])AIza[\w-]{35}(?![\w-])/g, mask: whole('google api key') },
  { pattern: /(?<![\w-])GOCSPX-[\w-]{20,}/g, mask: whole('google client secret') },
  { pattern: /(?<![\w.-])ya29\.[\w-]{20,}/g, mask: whole('google oauth token') },
  { pattern: /(?<![\w/-])1\/\/0[\w-]{30,}/g, mask: whole('google refresh token') },
  { pattern: /(?<![\w-])eyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]*/g, mask: whole('jwt') },
  { pattern: /(?<![\w-])ops_eyJ[\w+/=-]{50,}/g, mask: whole('1password token') },
  { pattern: /(?<![\w-])(?:hf|api_org)_[A-Za-z0-9]{30,}(?![\w-])/g, mask: whole('hugging face token') },
  { pattern: /(?<![\w-])npm_[A-Za-z0-9]{36}(?![\w-])/g, mask: whole('npm token') },
  { pattern: /(?<![\w-])pypi-Ag[\w-]{50,}/g, mask: whole('pypi token') },
  { pattern: /(?<![\w-])dckr_(?:pat|oat)_[\w-]{20,}/g, mask: whole('docker hub token') },
  { pattern: /(?<![\w-])SG\.[\w-]{16,}\.[\w-]{16,}/g, mask: whole('sendgrid key') },
  { pattern: /(?<![\w-])SK[0-9a-fA-F]{32}(?![\w-])/g, mask: whole('twilio key') },
  { pattern: /(?<![\w-])key-[0-9a-f]{32}(?![\w-])/g, mask: whole('mailgun key') },
  { pattern: /(?<![\w-])[0-9a-f]{32}-us\d{1,2}(?![\w-])/g, mask: whole('mailchimp key') },
  { pattern: /(?<![\w-])shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}/g, mask: whole('shopify token') },
  { pattern: /(?<![\w-])lin_(?:api|oauth)_[A-Za-z0-9]{40}/g, mask: whole('linear key') },
  { pattern: /(?<![\w-])hv[sb]\.[\w-]{24,}/g, mask: whole('vault token') },
  { pattern: /(?<![\w-])dapi[a-f0-9]{32}(?:-\d)?(?![\w-])/g, mask: whole('databricks token') },
  { pattern: /(?<![\w-])dp\.(?:st|pt|sa|ct|scim|audit)\.[\w.-]{20,}/g, mask: whole('doppler token') },
  { pattern: /(?<![\w-])do[opr]_v1_[a-f0-9]{64}/g, mask: whole('digitalocean token') },
  { pattern: /(?<![\w-])PMAK-[a-f0-9]{24}-[a-f0-9]{34}/g, mask: whole('postman key') },
  { pattern: /(?<![\w-])ATATT3[\w=-]{50,}/g, mask: whole('atlassian token') },
  { pattern: /(?<![\w-])(?:gsk_|r8_)[A-Za-z0-9]{30,}/g, mask: whole('ai provider key') },
  { pattern: /(?<![\w-])(?:xai|pplx)-[A-Za-z0-9]{40,}/g, mask: whole('ai provider key') },
  // Bot API URLs put the token right after "/bot".
  { pattern: /(?<![\w:])(bot)?\d{6,12}:AA[\w-]{30,}/g, mask: (_, [bot]) => `${bot ?? ''}${redacted('telegram bot token')}` },
  // Azure AD client secrets: three characters, a digit, "Q~", then 31 to 34 more.
  { pattern: /(?<![\w~.-])[\w~.-]{3}\dQ~[\w~.-]{31,34}(?![\w~.-])/g, mask: whole('azure client secret') },
  { pattern: /([?&]sig=)[\w%+/=-]{10,}/g, mask: after('azure sas signature') },
  // An Azure storage account key on its own: 64 random bytes in base64, 86 characters and "==". A SHA-512 in base64
  // has the same shape, but comes after "sha512-".
  { pattern: /(?<![\w+/=-])(?=[A-Za-z0-9+/]{0,85}\d)[A-Za-z0-9+/]{86}==(?![\w+/=])/g, mask: whole('azure storage key') },
  // Webhook URLs are credentials in full: anyone holding one can post. Keep the host, mask the path.
  { pattern: /(hooks\.slack\.com\/)(?:services|workflows|triggers)\/[\w/-]{10,}/g, mask: after('slack webhook') },
  { pattern: /(discord(?:app)?\.com\/api\/webhooks\/)\d+\/[\w-]{20,}/g, mask: after('discord webhook') },
  { pattern: /(\.webhook\.office\.com\/)webhookb2\/[^\s"'<>]+/g, mask: after('teams webhook') },
];
