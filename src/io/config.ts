import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { LIMITS, readBoundedText, readProblem } from './bounded-read.js';
import { parseProviderId, type ProviderId } from '../providers/provider-id.js';

export const CONFIG_FILE = 'transcript-doctor.config.json';

export type SeverityOverride = 'off' | 'info' | 'warning' | 'error';

/** The project's settings: rule severities by id, paths to skip, and defaults for `verify`. */
export interface ProjectConfig {
  /** Where it was read from, for messages. */
  path?: string;
  rules: Record<string, SeverityOverride>;
  ignores: string[];
  verify: Record<string, unknown>;
  /** The provider files are judged against when `--provider` is not given. */
  provider?: ProviderId;
  /** How many backups of a session in-place writes keep, when `--keep-backups` is not given. */
  keepBackups?: number;
  /** The size rules' settings: the share of the context window past which a session is near it. */
  size?: { nearWindow?: number };
}

const EMPTY: ProjectConfig = { rules: {}, ignores: [], verify: {} };
const TOP_KEYS = ['rules', 'ignores', 'verify', 'provider', 'keepBackups', 'size'];
const SIZE_KEYS = ['nearWindow'];
const VERIFY_KEYS = ['model', 'verifyAll', 'verifyHeartbeat', 'triggerKeywords', 'timeoutSeconds', 'messagingTools'];
const SEVERITIES: SeverityOverride[] = ['off', 'info', 'warning', 'error'];

/**
 * Reads `--config`, else the nearest transcript-doctor.config.json from `cwd` upwards. Every key
 * is checked, and a mistake names the key: a typo must not silently turn a rule off.
 */
export function loadProjectConfig(explicit: string | undefined, knownRules: readonly string[], cwd = process.cwd()): ProjectConfig {
  const path = explicit ?? findUpwards(cwd);
  if (path === undefined) return EMPTY;
  let text: string;
  try {
    text = readBoundedText(path, LIMITS.config);
  } catch (error) {
    throw new UserError(`${path}: cannot be read: ${readProblem(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UserError(`${path}: not valid JSON`);
  }
  const fail = (what: string): never => {
    throw new UserError(`${path}: ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('must be a JSON object');
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) if (!TOP_KEYS.includes(key)) fail(`unknown key "${key}" (known: ${TOP_KEYS.join(', ')})`);
  const config: ProjectConfig = { path, rules: {}, ignores: [], verify: {} };
  if (object.rules !== undefined) {
    if (typeof object.rules !== 'object' || object.rules === null || Array.isArray(object.rules)) fail('"rules" must be an object of rule id → severity');
    for (const [id, severity] of Object.entries(object.rules as Record<string, unknown>)) {
      if (!knownRules.includes(id)) fail(`"rules" names an unknown rule "${id}" (transcript-doctor rules lists them)`);
      if (!SEVERITIES.includes(severity as SeverityOverride)) fail(`"rules.${id}" must be one of ${SEVERITIES.join(', ')}`);
      config.rules[id] = severity as SeverityOverride;
    }
  }
  if (object.ignores !== undefined) {
    if (!Array.isArray(object.ignores) || !object.ignores.every((glob) => typeof glob === 'string')) fail('"ignores" must be a list of glob patterns');
    config.ignores = (object.ignores as string[]).map((glob) => (glob.startsWith('/') ? glob : join(dirname(resolve(path)), glob)));
  }
  if (object.provider !== undefined) {
    if (typeof object.provider !== 'string') fail('"provider" must be a string');
    config.provider = parseProviderId(object.provider as string, `${path}: "provider"`);
  }
  if (object.keepBackups !== undefined) {
    if (!Number.isInteger(object.keepBackups) || (object.keepBackups as number) < 1) fail('"keepBackups" must be a whole number ≥ 1 (--no-backup keeps none)');
    config.keepBackups = object.keepBackups as number;
  }
  if (object.size !== undefined) {
    if (typeof object.size !== 'object' || object.size === null || Array.isArray(object.size)) fail('"size" must be an object');
    const size = object.size as Record<string, unknown>;
    for (const key of Object.keys(size)) if (!SIZE_KEYS.includes(key)) fail(`unknown key "size.${key}" (known: ${SIZE_KEYS.join(', ')})`);
    const near = size.nearWindow;
    if (near !== undefined && (typeof near !== 'number' || !(near > 0 && near < 1))) fail('"size.nearWindow" must be a number between 0 and 1 (a share of the context window)');
    config.size = near === undefined ? {} : { nearWindow: near as number };
  }
  if (object.verify !== undefined) {
    if (typeof object.verify !== 'object' || object.verify === null || Array.isArray(object.verify)) fail('"verify" must be an object');
    for (const key of Object.keys(object.verify as object)) if (!VERIFY_KEYS.includes(key)) fail(`unknown key "verify.${key}" (known: ${VERIFY_KEYS.join(', ')})`);
    config.verify = object.verify as Record<string, unknown>;
  }
  return config;
}

function findUpwards(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
