import type { SchemaBreak } from '../../model/entry.js';
import { isObject, type Json } from '../json.js';
import { EVENT_CONTRACTS, SCHEMA_VERSION, type EventContract } from './schema-table.js';

/** The last id found to be a UUID: an event's parentId is most often the id of the event before it. */
let lastUuid = '';

/** The ids the client's loader takes ("`id` must be a UUID string"): 32 hex digits, or 36 with dashes in the usual places. Checked by hand, as every event has two. */
function isUuid(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (value === lastUuid) return true;
  const dashed = value.length === 36;
  if (!dashed && value.length !== 32) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (dashed && (i === 8 || i === 13 || i === 18 || i === 23)) {
      if (c !== 0x2d) return false;
    } else if (!((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66))) return false;
  }
  lastUuid = value;
  return true;
}

/**
 * Where an event breaks what Copilot CLI checks on load, from the schema it ships. 1.0.102 refuses
 * the whole file for an envelope that is not a UUID `id`, a UUID-or-null `parentId`, a boolean
 * `ephemeral`, or for a `data` that lacks a required field or holds null in one ("Session file is
 * corrupted (line 7: missing field `success`)", tried). `ephemeral: false` on an event type whose
 * schema allows only `true` it loads; a loader that validates the schema refuses it ("ephemeral:
 * Invalid literal value, expected true", github/copilot-sdk #1007). Event types the vendored table
 * does not know are a newer client's and are not judged.
 */
export function schemaBreaks(value: Json): SchemaBreak[] | undefined {
  const contract = typeof value.type === 'string' ? EVENT_CONTRACTS[value.type] : undefined;
  if (contract === undefined || conforms(value, contract)) return undefined;
  const breaks: SchemaBreak[] = [];
  const refused = (pointer: string, what: string) => breaks.push({ pointer, problem: `${what} (Copilot CLI ${SCHEMA_VERSION})`, fixable: false });
  if (!isUuid(value.id)) refused('/id', '`id` must be a UUID string');
  if (value.parentId === undefined || (value.parentId !== null && !isUuid(value.parentId))) refused('/parentId', '`parentId` must be a UUID string or null');
  if (typeof value.timestamp !== 'string') refused('/timestamp', '`timestamp` must be a string');
  if (value.agentId !== undefined && typeof value.agentId !== 'string') refused('/agentId', '`agentId` must be a string');
  if (value.ephemeral !== undefined && typeof value.ephemeral !== 'boolean') refused('/ephemeral', '`ephemeral` must be a boolean');
  else if (value.ephemeral === false && contract.ephemeral) {
    breaks.push({ pointer: '/ephemeral', problem: `\`ephemeral\` must be the literal true for a ${value.type} event (schema of Copilot CLI ${SCHEMA_VERSION})`, fixable: true, clientLoads: true });
  }
  if (!isObject(value.data)) refused('/data', '`data` must be an object');
  else for (const field of contract.required ?? []) {
    const held = value.data[field];
    if (held === undefined) refused(`/data/${field}`, `a ${value.type} event requires \`data.${field}\``);
    else if (held === null && !(contract.nullable ?? []).includes(field)) refused(`/data/${field}`, `\`data.${field}\` of a ${value.type} event must not be null`);
  }
  return breaks;
}

/**
 * Whether an event keeps its contract: the same checks as schemaBreaks without a list or a
 * closure, as every event is checked and nearly all keep it. The parent first: it is most often
 * the id of the event before, checked last (see isUuid).
 */
function conforms(value: Json, contract: EventContract): boolean {
  const parentId = value.parentId;
  if (parentId !== null && !isUuid(parentId)) return false;
  if (!isUuid(value.id) || typeof value.timestamp !== 'string') return false;
  if (value.agentId !== undefined && typeof value.agentId !== 'string') return false;
  const ephemeral = value.ephemeral;
  if (ephemeral !== undefined && (typeof ephemeral !== 'boolean' || (ephemeral === false && contract.ephemeral === true))) return false;
  const data = value.data;
  if (!isObject(data)) return false;
  const required = contract.required;
  if (required !== undefined) for (const field of required) {
    const held = data[field];
    if (held === undefined || (held === null && contract.nullable?.includes(field) !== true)) return false;
  }
  return true;
}

/** Writes the one value the schema leaves for each break that has one. */
export function fixSchemaBreaks(value: Json): void {
  for (const found of schemaBreaks(value) ?? []) if (found.fixable && found.pointer === '/ephemeral') value.ephemeral = true;
}
