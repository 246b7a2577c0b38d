import { createHash } from 'node:crypto';
import { isObject, type Json } from '../json.js';

/**
 * The `session_meta` header. Codex reads it into `SessionMeta` (codex-rs/protocol): the id must
 * parse as a UUID and these fields must be strings, or the line does not deserialize and Codex
 * refuses to resume the rollout ("no usable header record").
 */
const REQUIRED_TEXT = ['timestamp', 'cwd', 'originator', 'cli_version'] as const;

/** The spellings the uuid crate parses: hyphenated, simple, braced and URN. */
const UUID = /^(?:urn:uuid:)?(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}|[0-9a-f]{32})$/i;

/** A UUID at the end of a file stem: Codex names rollouts `rollout-<time>-<session id>.jsonl`. */
const TRAILING_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a header we write says wrote it; Codex only records the value. */
const ORIGINATOR = 'transcript-doctor';

/** Why Codex cannot read a header payload, in words; undefined when it can. */
export function sessionMetaProblem(payload: unknown): string | undefined {
  if (!isObject(payload)) return 'its "payload" is not an object';
  if (payload.id === undefined || payload.id === null) return 'its "id" is missing';
  if (typeof payload.id !== 'string' || !UUID.test(payload.id)) return 'its "id" is not a UUID';
  const missing = REQUIRED_TEXT.find((field) => typeof payload[field] !== 'string');
  return missing === undefined ? undefined : `its "${missing}" is missing`;
}

/**
 * The session id a header gets from `seed` (the file's stem): the UUID the file is named after,
 * or one derived from the seed and what the line holds (files named alike still get different
 * ids), so a repeat run writes the same bytes.
 */
function sessionUuid(seed: string, line: Json): string {
  const named = TRAILING_UUID.exec(seed)?.[0];
  if (named !== undefined) return named.toLowerCase();
  return uuidFrom(`${seed}\n${JSON.stringify(line)}`);
}

/** A version-4-shaped UUID derived from `seed`. */
export function uuidFrom(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Makes a header readable in place: an id that is not a UUID is replaced, missing required
 * fields are added (the time from the line, an unknown working directory as ''); fields that
 * are there stay as written.
 */
export function completeSessionMeta(line: Json, seed: string): void {
  if (!isObject(line.payload)) line.payload = {};
  const payload = line.payload as Json;
  if (typeof payload.id !== 'string' || !UUID.test(payload.id)) payload.id = sessionUuid(seed, line);
  const filler: Record<(typeof REQUIRED_TEXT)[number], string> = {
    timestamp: typeof line.timestamp === 'string' ? line.timestamp : '',
    cwd: '',
    originator: ORIGINATOR,
    cli_version: '',
  };
  for (const field of REQUIRED_TEXT) if (typeof payload[field] !== 'string') payload[field] = filler[field];
}

/** A new header line, for a rollout that has none. `source` is the line it goes before; a `turn_context` there gives the working directory, its `ordinal` the header's. */
export function newSessionMeta(seed: string, source: unknown): Json {
  const timestamp = isObject(source) && typeof source.timestamp === 'string' ? source.timestamp : new Date().toISOString();
  const context = isObject(source) && source.type === 'turn_context' && isObject(source.payload) ? source.payload : undefined;
  const payload: Json = { id: undefined, timestamp };
  if (typeof context?.cwd === 'string') payload.cwd = context.cwd;
  const line: Json = { timestamp, type: 'session_meta', payload };
  // In a paginated rollout the header is numbered too, one before the line it goes in front of.
  const next = isObject(source) && typeof source.ordinal === 'number' && Number.isSafeInteger(source.ordinal) ? source.ordinal : undefined;
  if (next !== undefined) line.ordinal = Math.max(0, next - 1);
  completeSessionMeta(line, seed);
  return line;
}
