import { LIMITS, readBoundedText, readProblem } from '../io/bounded-read.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.js';

/** How the judge picks and judges responses; names follow OpenClaw's `agents.defaults.verifier`. */
export interface VerifySettings {
  model?: string;
  verifyAll: boolean;
  verifyHeartbeat: boolean;
  triggerKeywords: string[];
  timeoutSeconds: number;
  /** Tools whose use in a turn means the answer was already delivered to a channel. */
  messagingTools: string[];
}

/** The seed's defaults (OpenClaw PR #21832). */
export const DEFAULT_SETTINGS: VerifySettings = {
  verifyAll: false,
  verifyHeartbeat: false,
  triggerKeywords: ['done', 'completed', 'finished', 'ready', 'here you go'],
  timeoutSeconds: 30,
  messagingTools: ['message', 'sessions_send', 'conversations_send', 'conversations_turn'],
};

/**
 * Reads `agents.defaults.verifier` from an OpenClaw config (the given file, else
 * `~/.openclaw/openclaw.json` when it exists). Unknown keys are ignored, wrong types are errors.
 */
export async function loadVerifierConfig(path: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<Partial<VerifySettings>> {
  const file = path ?? join(env.OPENCLAW_STATE_DIR || join(env.HOME ?? homedir(), '.openclaw'), 'openclaw.json');
  let text: string;
  try {
    text = readBoundedText(file, LIMITS.config);
  } catch (error) {
    if (path !== undefined) throw new UserError(`cannot read config ${path}: ${readProblem(error)}`);
    return {};
  }
  let config: unknown;
  try {
    config = JSON.parse(stripComments(text));
  } catch {
    throw new UserError(`${file} is not valid JSON`);
  }
  const verifier = (config as { agents?: { defaults?: { verifier?: unknown } } })?.agents?.defaults?.verifier;
  if (verifier === undefined) return {};
  if (typeof verifier !== 'object' || verifier === null) throw new UserError(`${file}: agents.defaults.verifier must be an object`);
  const v = verifier as Record<string, unknown>;
  const out: Partial<VerifySettings> = {};
  const check = (key: string, ok: boolean, what: string) => {
    if (v[key] !== undefined && !ok) throw new UserError(`${file}: agents.defaults.verifier.${key} must be ${what}`);
    return v[key] !== undefined;
  };
  if (check('model', typeof v.model === 'string', 'a string like "anthropic/claude-sonnet-4-5"')) out.model = v.model as string;
  if (check('verifyAll', typeof v.verifyAll === 'boolean', 'true or false')) out.verifyAll = v.verifyAll as boolean;
  if (check('verifyHeartbeat', typeof v.verifyHeartbeat === 'boolean', 'true or false')) out.verifyHeartbeat = v.verifyHeartbeat as boolean;
  if (check('triggerKeywords', Array.isArray(v.triggerKeywords) && v.triggerKeywords.every((k) => typeof k === 'string'), 'a list of strings')) {
    out.triggerKeywords = v.triggerKeywords as string[];
  }
  if (check('timeoutSeconds', typeof v.timeoutSeconds === 'number' && v.timeoutSeconds > 0, 'a positive number')) out.timeoutSeconds = v.timeoutSeconds as number;
  return out;
}

/** OpenClaw's config is JSON5-ish: drop // and /* comments outside strings, and trailing commas. */
function stripComments(text: string): string {
  return text
    .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_match, string: string | undefined) => string ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
}
