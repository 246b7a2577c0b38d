import { createHash } from 'node:crypto';
import { isObject, timestampOr, type Json } from '../json.js';

/**
 * The `session_meta` header. Codex reads it into `SessionMeta` (codex-rs/protocol): the id must
 * parse as a UUID and these fields must be strings, or the line does not deserialize and Codex
 * refuses to resume the rollout ("rollout at … does not start with session metadata": it skips a
 * line it cannot read and meets a history item first).
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
  if (missing !== undefined) return `its "${missing}" is missing`;
  if (spawnedFrom(payload) !== undefined && !UUID.test(spawnedFrom(payload)!)) return 'the parent_thread_id of its sub-agent "source" is not a UUID';
  return dynamicToolsProblem(payload.dynamic_tools);
}

/** A sub-agent's parent thread (`source.subagent.thread_spawn.parent_thread_id`), a thread id Codex parses as a UUID. */
function spawnedFrom(payload: Json): string | undefined {
  const spawn = isObject(payload.source) && isObject(payload.source.subagent) && isObject(payload.source.subagent.thread_spawn) ? payload.source.subagent.thread_spawn : undefined;
  if (spawn === undefined || spawn.parent_thread_id === undefined) return undefined;
  return typeof spawn.parent_thread_id === 'string' ? spawn.parent_thread_id : '';
}

/**
 * `dynamic_tools` is a list of Codex's `DynamicToolSpec`: `name`, `description` (strings) and
 * `inputSchema` (any JSON, but there) are required, `namespace` is a string and `deferLoading`
 * and `exposeToContext` are booleans when given. One entry Codex cannot read and the whole header
 * does not deserialize.
 */
function dynamicToolsProblem(tools: unknown): string | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) return 'its "dynamic_tools" is not a list';
  for (let i = 0; i < tools.length; i++) {
    const problem = dynamicToolProblem(tools[i]);
    if (problem !== undefined) return `its dynamic_tools[${i}]${namedTool(tools[i])} ${problem}`;
  }
  return undefined;
}

function dynamicToolProblem(tool: unknown): string | undefined {
  if (!isObject(tool)) return 'is not an object';
  if (typeof tool.name !== 'string') return 'has no "name"';
  if (typeof tool.description !== 'string') return 'has no "description"';
  if (!('inputSchema' in tool)) return 'has no "inputSchema"';
  if (tool.namespace !== undefined && tool.namespace !== null && typeof tool.namespace !== 'string') return 'has a "namespace" that is not a string';
  const flag = OPTIONAL_FLAGS.find((field) => tool[field] !== undefined && tool[field] !== null && typeof tool[field] !== 'boolean');
  return flag === undefined ? undefined : `has a "${flag}" that is not true or false`;
}

const OPTIONAL_FLAGS = ['deferLoading', 'exposeToContext'] as const;

function namedTool(tool: unknown): string {
  return isObject(tool) && typeof tool.name === 'string' ? ` (${JSON.stringify(tool.name.slice(0, 64))})` : '';
}

/**
 * A tool Codex could not read, made readable the way that keeps what the line says: a missing
 * description is empty, a missing schema is that of a tool without parameters (the one fact the
 * file lost), a malformed optional field goes. An entry without a name, or not an object, cannot
 * be a tool at all and goes (false).
 */
function completeDynamicTool(tool: unknown): boolean {
  if (!isObject(tool) || typeof tool.name !== 'string') return false;
  if (typeof tool.description !== 'string') tool.description = '';
  if (!('inputSchema' in tool)) tool.inputSchema = { type: 'object', properties: {} };
  if (tool.namespace !== undefined && tool.namespace !== null && typeof tool.namespace !== 'string') delete tool.namespace;
  for (const field of OPTIONAL_FLAGS) if (tool[field] !== undefined && tool[field] !== null && typeof tool[field] !== 'boolean') delete tool[field];
  return true;
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
 * fields are added (the time from the line, an unknown working directory as ''), dynamic tools
 * Codex cannot read are completed (see completeDynamicTool); fields that are there stay as written.
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
  const parent = spawnedFrom(payload);
  // The same parent name gives the same id in every sub-agent file it spawned.
  if (parent !== undefined && !UUID.test(parent)) (((payload.source as Json).subagent as Json).thread_spawn as Json).parent_thread_id = uuidFrom(`parent-thread\n${parent}`);
  const tools = payload.dynamic_tools;
  if (Array.isArray(tools)) {
    if (tools.some((tool) => dynamicToolProblem(tool) !== undefined)) payload.dynamic_tools = tools.filter(completeDynamicTool);
  } else if (tools !== undefined && tools !== null) delete payload.dynamic_tools;
}

/** A new header line, for a rollout that has none. `source` is the line it goes before; a `turn_context` there gives the working directory, its `ordinal` the header's. */
export function newSessionMeta(seed: string, source: unknown, at: Date): Json {
  const timestamp = timestampOr(source, at);
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
