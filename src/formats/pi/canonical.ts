import { isObject, nonEmptyString, type Json } from '../json.js';

/** Block types that are tool calls in some writer's dialect; `toolCall` is pi's canonical one. */
export const CALL_TYPES = new Set(['toolCall', 'toolUse', 'functionCall', 'tool_call', 'tool_use', 'function_call']);
export const CALL_ID_FIELDS = ['id', 'toolCallId', 'toolUseId', 'call_id', 'tool_call_id', 'tool_use_id'] as const;
const CALL_ARGUMENT_FIELDS = ['arguments', 'input', 'toolInput'] as const;
export const RESULT_ID_FIELDS = ['toolCallId', 'toolUseId', 'tool_use_id', 'tool_call_id', 'callId', 'call_id'] as const;
export const RESULT_ID_ALIASES = RESULT_ID_FIELDS.slice(1);

/** What canonicalizing a block or result would do, in words; `conflict` when it must not guess. */
export interface Canonical {
  value: Json;
  changes: string[];
  conflict?: string;
}

/** Kimi's ids `functions.read:0` arrive mangled as `functions read:0` from some providers. */
const MANGLED_KIMI_ID = /^functions (\S+):(\d+)$/;

export function canonicalId(id: string): string {
  const mangled = MANGLED_KIMI_ID.exec(id);
  return mangled === null ? id : `functions.${mangled[1]}:${mangled[2]}`;
}

/** Cheap test for the shape pi writes itself, so healthy blocks cost no copy. */
export function isCanonicalCall(block: Json): boolean {
  return (
    block.type === 'toolCall' &&
    typeof block.id === 'string' &&
    !MANGLED_KIMI_ID.test(block.id) &&
    isObject(block.arguments) &&
    (typeof block.name !== 'string' || block.name.trim() === block.name) &&
    block.input === undefined &&
    block.toolInput === undefined &&
    CALL_ID_FIELDS.every((field) => field === 'id' || block[field] === undefined)
  );
}

/**
 * The canonical `{"type":"toolCall","id","name","arguments"}` form of a call block. Fields are
 * renamed where they stand, so key order and unknown fields (thoughtSignature, …) survive.
 */
export function canonicalCall(block: Json): Canonical {
  const changes: string[] = [];
  const ids = distinct(CALL_ID_FIELDS.map((field) => nonEmptyString(block[field])));
  if (ids.length > 1) return { value: block, changes, conflict: `its id fields disagree (${ids.join(', ')})` };
  const idField = CALL_ID_FIELDS.find((field) => nonEmptyString(block[field]) !== undefined);
  const argumentField = CALL_ARGUMENT_FIELDS.find((field) => block[field] !== undefined);
  let args = argumentField === undefined ? undefined : block[argumentField];
  if (typeof args === 'string') {
    const parsed = parseObject(args);
    if (parsed === undefined) return { value: block, changes, conflict: 'its arguments are a string that is not a JSON object' };
    args = parsed;
    changes.push('arguments from a JSON string to an object');
  }
  if (block.type !== 'toolCall') changes.push(`"${String(block.type)}" block to "toolCall"`);
  if (idField !== undefined && idField !== 'id') changes.push(`"${idField}" to "id"`);
  if (argumentField !== undefined && argumentField !== 'arguments') changes.push(`"${argumentField}" to "arguments"`);
  const value: Json = {};
  for (const [key, field] of Object.entries(block)) {
    if (key === 'type') value.type = 'toolCall';
    else if ((CALL_ID_FIELDS as readonly string[]).includes(key)) {
      if (key === idField) value.id = canonicalId(String(field));
      else if (field !== undefined) changes.push(`drop the duplicate "${key}"`);
    } else if ((CALL_ARGUMENT_FIELDS as readonly string[]).includes(key)) {
      if (key === argumentField) value.arguments = args;
      else changes.push(`drop the unused "${key}"`);
    } else if (key === 'name' && typeof field === 'string') {
      value.name = field.trim();
      if (value.name !== field) changes.push(`tool name "${field}" trimmed`);
    } else value[key] = field;
  }
  if (typeof value.id === 'string' && value.id !== block[idField ?? 'id']) changes.push(`Kimi id "${String(block[idField!])}" to "${value.id}"`);
  return { value, changes };
}

/** A tool result with its call id in `toolCallId`; other id fields go when they agree. */
export function canonicalResult(message: Json): Canonical {
  const changes: string[] = [];
  const ids = distinct(RESULT_ID_FIELDS.map((field) => nonEmptyString(message[field])));
  if (ids.length > 1) return { value: message, changes, conflict: `its call id fields disagree (${ids.join(', ')})` };
  const idField = RESULT_ID_FIELDS.find((field) => nonEmptyString(message[field]) !== undefined);
  if (idField === undefined) return { value: message, changes };
  if (idField !== 'toolCallId') changes.push(`"${idField}" to "toolCallId"`);
  const value: Json = {};
  for (const [key, field] of Object.entries(message)) {
    if (!(RESULT_ID_FIELDS as readonly string[]).includes(key)) value[key] = field;
    else if (key === idField) value.toolCallId = canonicalId(String(field));
    else changes.push(`drop the duplicate "${key}"`);
  }
  if (value.toolCallId !== message[idField]) changes.push(`Kimi id "${String(message[idField])}" to "${String(value.toolCallId)}"`);
  return { value, changes };
}

function distinct(values: Array<string | undefined>): string[] {
  return [...new Set(values.filter((value): value is string => value !== undefined).map(canonicalId))];
}

function parseObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
