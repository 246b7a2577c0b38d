import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { copilotCliEncoder } from '../../src/formats/copilot-cli/encode.js';
import { repairBytes } from '../helpers/repair-tester.js';
import { copilotBinary } from './copilot-resume.js';
import { shippedSessionEventsSchema, type ShippedSchema } from './copilot-schema.js';

// ajv-formats is CommonJS whose default export NodeNext types only as `.default`.
const addFormats = createRequire(import.meta.url)('ajv-formats') as typeof import('ajv-formats').default;

const ROOT = join(import.meta.dirname, '..', '..');
const DIR = join(ROOT, 'fixtures', 'copilot-cli');
const files = readdirSync(DIR).filter((name) => name.endsWith('.jsonl'));
/** The session a fixture whose start is torn is filed under (as in copilot-interop: repair takes the id from the folder). */
const FALLBACK_SESSION = '7c1e9b42-3d5a-4f86-b0e1-2a9c4d6e8f10';
/** The schema's annotations that are not JSON Schema keywords; any other unknown keyword fails compiling, so a new one is seen. */
const ANNOTATIONS = ['stability', 'visibility', 'x-enumDescriptions', 'x-opaque-json', 'x-legacy-parameters', 'x-extensible-enum'];

const sessionOf = (text: string) => /"sessionId":"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/.exec(text)?.[1] ?? FALLBACK_SESSION;

describe('repaired Copilot CLI fixtures hold to the session-events schema the installed client ships', () => {
  const binary = copilotBinary()!;
  let shipped: ShippedSchema;
  let ajv: Ajv;
  let validate: ValidateFunction;
  /** Each event type's own definition, to say why a line fails rather than list every branch of SessionEvent. */
  const definitionOf = new Map<string, string>();
  const texts = new Map<string, { original: string; discard: string; synthetic: string }>();

  beforeAll(async () => {
    shipped = await shippedSessionEventsSchema(binary);
    ajv = new Ajv({ allErrors: true });
    ajv.addVocabulary(ANNOTATIONS);
    addFormats(ajv);
    ajv.addSchema(shipped.schema, 'copilot-session-events');
    validate = ajv.getSchema('copilot-session-events')!;
    const definitions = shipped.schema.definitions as Record<string, any>;
    for (const branch of definitions.SessionEvent.anyOf as Array<{ $ref: string }>) {
      const name = branch.$ref.split('/').at(-1)!;
      definitionOf.set(definitions[name].properties.type.const, name);
    }
    for (const name of files) {
      const original = readFileSync(join(DIR, name), 'utf8');
      const repaired = async (mode: 'discard' | 'synthetic') => (await repairBytes(original, mode, `${sessionOf(original)}/events.jsonl`)).output.toString('utf8');
      texts.set(name, { original, discard: await repaired('discard'), synthetic: await repaired('synthetic') });
    }
  }, 120_000);

  /** Every line the schema refuses, as `line N (type): why`. */
  function schemaErrors(text: string): string[] {
    const errors: string[] = [];
    text.split('\n').forEach((line, at) => {
      if (line === '' && at === text.split('\n').length - 1) return;
      let event: any;
      try {
        event = JSON.parse(line);
      } catch {
        errors.push(`line ${at + 1}: not JSON`);
        return;
      }
      if (validate(event)) return;
      const own = definitionOf.get(event?.type);
      const check = own === undefined ? validate : ajv.getSchema(`copilot-session-events#/definitions/${own}`)!;
      check(event);
      errors.push(`line ${at + 1} (${String(event?.type)}): ${ajv.errorsText(check.errors)}`);
    });
    return errors;
  }

  it('is the draft-07 schema of every event shape (the draft Ajv’s default class checks)', () => {
    expect(shipped.schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(shipped.schema.$ref).toBe('#/definitions/SessionEvent');
    expect(definitionOf.size).toBeGreaterThan(100);
  });

  it('matches the table the format checks against (src/formats/copilot-cli/schema-table.ts), so the table cannot drift from the client', () => {
    const derived = execFileSync(process.execPath, [join(ROOT, 'scripts', 'copilot-schema-table.mjs'), shipped.cachedAt, shipped.version], { encoding: 'utf8' });
    expect(readFileSync(join(ROOT, 'src', 'formats', 'copilot-cli', 'schema-table.ts'), 'utf8')).toBe(derived);
  });

  it('refuses the schema-ephemeral fixture as written, on its `ephemeral: false` line alone', () => {
    const { original } = texts.get('schema-ephemeral.jsonl')!;
    const broken = original.split('\n').findIndex((line) => line !== '' && JSON.parse(line).ephemeral === false) + 1;
    expect(broken).toBeGreaterThan(0);
    const errors = schemaErrors(original);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^line ${broken} \\(session\\.idle\\): .*ephemeral must be equal to constant`));
  });

  it('accepts every healthy fixture as written (those repair leaves byte for byte as they are)', () => {
    const healthy = files.filter((name) => {
      const { original, discard, synthetic } = texts.get(name)!;
      return discard === original && synthetic === original;
    });
    expect(healthy).toContain('healthy.jsonl');
    expect(healthy).not.toContain('schema-ephemeral.jsonl');
    expect(Object.fromEntries(healthy.map((name) => [name, schemaErrors(texts.get(name)!.original)]))).toEqual(Object.fromEntries(healthy.map((name) => [name, []])));
  });

  it('accepts every kind of line the encoder writes, whatever the fixtures happen to need', () => {
    const lines = texts.get('subagent-missing-tool-result.jsonl')!.original.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
    const mainCall = lines.find((event) => event.type === 'assistant.message' && event.agentId === undefined && event.data.toolRequests.length > 0);
    const agentCall = lines.find((event) => event.type === 'assistant.message' && typeof event.agentId === 'string' && event.data.toolRequests.length > 0);
    expect(agentCall?.data.parentToolCallId).toEqual(expect.any(String));
    const created = [
      copilotCliEncoder.create({ kind: 'header', id: FALLBACK_SESSION, timestampFrom: 1 }, lines[1], new Date()),
      copilotCliEncoder.create({ kind: 'missing-result', callId: mainCall.data.toolRequests[0].toolCallId, timestampFrom: 1 }, mainCall, new Date()),
      copilotCliEncoder.create({ kind: 'missing-result', callId: agentCall.data.toolRequests[0].toolCallId, timestampFrom: 1 }, agentCall, new Date()),
      copilotCliEncoder.create({ kind: 'bridge', role: 'user', timestampFrom: 1 }, mainCall, new Date()),
      copilotCliEncoder.create({ kind: 'bridge', role: 'assistant', timestampFrom: 1 }, mainCall, new Date()),
    ];
    expect(created.map((event: any) => event.type)).toEqual(['session.start', 'tool.execution_complete', 'tool.execution_complete', 'user.message', 'assistant.message']);
    expect(schemaErrors(created.map((event) => JSON.stringify(event)).join('\n'))).toEqual([]);
  });

  for (const name of files) {
    for (const mode of ['discard', 'synthetic'] as const) {
      it(`${mode}: ${name}`, () => {
        const repaired = texts.get(name)![mode];
        expect(repaired.length).toBeGreaterThan(0);
        expect(schemaErrors(repaired)).toEqual([]);
      });
    }
  }
});
