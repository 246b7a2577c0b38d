import type { SchemaBreak } from '../../model/entry.js';
import { isObject, type Json } from '../json.js';
import { EVENT_CONTRACTS, SCHEMA_VERSION } from './schema-table.js';

/**
 * Where an event breaks the schema Copilot CLI validates every line against on load (a break
 * makes it refuse the whole file: "Session file is corrupted (line N: ephemeral: Invalid literal
 * value, expected true)", github/copilot-sdk #1007). Only what the vendored table holds is judged:
 * the envelope, `ephemeral`'s literal and the `data` fields each type requires. An event type the
 * table does not know is a newer client's, and is not judged. `parentId` is missing-parent-id's.
 */
export function schemaBreaks(value: Json): SchemaBreak[] | undefined {
  const contract = typeof value.type === 'string' ? EVENT_CONTRACTS[value.type] : undefined;
  if (contract === undefined) return undefined;
  const breaks: SchemaBreak[] = [];
  const missing = (pointer: string, what: string) => breaks.push({ pointer, problem: `${what} (schema of Copilot CLI ${SCHEMA_VERSION})`, fixable: false });
  if (typeof value.id !== 'string') missing('/id', '`id` must be a string');
  if (typeof value.timestamp !== 'string') missing('/timestamp', '`timestamp` must be a string');
  if (value.agentId !== undefined && typeof value.agentId !== 'string') missing('/agentId', '`agentId` must be a string');
  if (value.ephemeral !== undefined && value.ephemeral !== true) {
    if (contract.ephemeral) breaks.push({ pointer: '/ephemeral', problem: `\`ephemeral\` must be the literal true for a ${value.type} event (schema of Copilot CLI ${SCHEMA_VERSION})`, fixable: true });
    else if (typeof value.ephemeral !== 'boolean') missing('/ephemeral', '`ephemeral` must be true or false');
  }
  if (!isObject(value.data)) missing('/data', '`data` must be an object');
  else for (const field of contract.required ?? []) if (value.data[field] === undefined) missing(`/data/${field}`, `a ${value.type} event requires \`data.${field}\``);
  return breaks.length > 0 ? breaks : undefined;
}

/** Writes the one value the schema leaves for each break that has one. */
export function fixSchemaBreaks(value: Json): void {
  for (const found of schemaBreaks(value) ?? []) if (found.fixable && found.pointer === '/ephemeral') value.ephemeral = true;
}
