import type { SchemaBreak } from '../../model/entry.js';
import { isObject, type Json } from '../json.js';
import { EVENT_CONTRACTS, SCHEMA_VERSION } from './schema-table.js';

/** The ids the client's loader takes ("`id` must be a UUID string"). */
const UUID = /^([0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

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
  if (contract === undefined) return undefined;
  const breaks: SchemaBreak[] = [];
  const refused = (pointer: string, what: string) => breaks.push({ pointer, problem: `${what} (Copilot CLI ${SCHEMA_VERSION})`, fixable: false });
  if (typeof value.id !== 'string' || !UUID.test(value.id)) refused('/id', '`id` must be a UUID string');
  if (value.parentId === undefined || (value.parentId !== null && (typeof value.parentId !== 'string' || !UUID.test(value.parentId)))) refused('/parentId', '`parentId` must be a UUID string or null');
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
  return breaks.length > 0 ? breaks : undefined;
}

/** Writes the one value the schema leaves for each break that has one. */
export function fixSchemaBreaks(value: Json): void {
  for (const found of schemaBreaks(value) ?? []) if (found.fixable && found.pointer === '/ephemeral') value.ephemeral = true;
}
