/** A span of text a detector took for a secret, and what kind. */
export interface Detection {
  start: number;
  end: number;
  kind: string;
}

export type Detector = (text: string) => Promise<Detection[]>;

const PREFIX = '@secretlint/secretlint-rule-';

/**
 * secretlint and its preset, loaded on first use: they are larger than the rest of the program, and the scan
 * threads that may mask a timeline's text (scan --reporter html) must not pay for them otherwise.
 */
async function importDetector() {
  const [core, preset] = await Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')]);
  // The preset's comment filter obeys "secretlint-disable" comments: a transcript's author must not be able to switch
  // detection off by writing one.
  const rules = preset.rules.filter((rule) => rule.meta.id !== `${PREFIX}filter-comments`).map((rule) => ({ id: rule.meta.id, rule, options: {} }));
  return { lintSource: core.lintSource, config: { rules } };
}

let detector: ReturnType<typeof importDetector> | undefined;

const KINDS: Record<string, string> = {
  aws: 'aws key',
  gcp: 'gcp key',
  privatekey: 'private key',
  npm: 'npm token',
  basicauth: 'url password',
  slack: 'slack token',
  sendgrid: 'sendgrid key',
  shopify: 'shopify token',
  github: 'github token',
  openai: 'openai key',
  anthropic: 'anthropic key',
  linear: 'linear key',
  '1password': '1password token',
  'database-connection-string': 'connection string',
};

/**
 * secretlint's recommended preset (a maintained detector with its own list of shapes and checks) over one text. Its
 * ranges are reported as given; maskForJudge() widens them to whole tokens.
 */
export const secretlint: Detector = async (text) => {
  const { lintSource, config } = await (detector ??= importDetector());
  const result = await lintSource({
    source: { content: text, filePath: 'transcript.txt', contentType: 'text' },
    // maskSecrets keeps the found values out of the messages, in case anything ever logs them.
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  return result.messages.map((message) => {
    const rule = message.ruleId.startsWith(PREFIX) ? message.ruleId.slice(PREFIX.length) : message.ruleId;
    return { start: message.range[0], end: message.range[1], kind: KINDS[rule] ?? `${rule} secret` };
  });
};
