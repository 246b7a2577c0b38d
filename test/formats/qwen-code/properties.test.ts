import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { QwenSession } from './session.js';

/** Per turn: rounds of parallel calls, each with the order their results are recorded in. */
const shapes = fc.array(
  fc.array(fc.integer({ min: 1, max: 3 }).chain((n) => fc.shuffledSubarray([...Array(n).keys()], { minLength: n })), { maxLength: 3 }),
  { minLength: 1, maxLength: 4 },
);

/** A healthy session written the way Qwen Code writes one: a prompt, telemetry before each model turn, one tool_result record per call. */
function build(shape: number[][][]): Array<Record<string, any>> {
  const session = new QwenSession();
  let n = 0;
  shape.forEach((rounds, turn) => {
    session.user(`task ${turn}`);
    for (const order of rounds) {
      session.system('ui_telemetry', { uiEvent: { 'event.name': 'qwen-code.api_response', auth_type: 'openai' } });
      const ids = order.map(() => `call_${turn}_${n++}`);
      session.calls(ids);
      for (const i of order) session.result(ids[i]!);
    }
    session.system('ui_telemetry', { uiEvent: { 'event.name': 'qwen-code.api_response', auth_type: 'openai' } });
    session.answer(`done ${turn}`);
  });
  return session.records;
}

const text = (records: Array<Record<string, any> | string>) => records.map((record) => `${typeof record === 'string' ? record : JSON.stringify(record)}\n`).join('');
const prompts = (records: Array<Record<string, any>>) => records.filter((record) => record.type === 'user').map((record) => record.message.parts[0].text);

const BREAKS = ['drop-result', 'orphan', 'duplicate-result', 'gap', 'torn-line'] as const;

/** Breaks a healthy session; the finding expected (`line rule`), or undefined when it has no place for the break. */
function inject(records: Array<Record<string, any>>, kind: (typeof BREAKS)[number], pick: number): { lines: Array<Record<string, any> | string>; expected: string } | undefined {
  const out: Array<Record<string, any> | string> = records.map((record) => structuredClone(record));
  const results = records.map((record, i) => [record, i] as const).filter(([record]) => record.type === 'tool_result');
  const telemetry = records.map((record, i) => [record, i] as const).filter(([record]) => record.type === 'system');
  const pool = kind === 'gap' ? telemetry.filter(([, i]) => i > 0 && i < records.length - 1) : results;
  if (pool.length === 0) return undefined;
  const [target, at] = pool[pick % pool.length]!;
  const id = target.message?.parts[0].functionResponse.id;
  const callAt = records.findIndex((record) => record.type === 'assistant' && record.message.parts.some((part: any) => part.functionCall?.id === id));
  switch (kind) {
    case 'drop-result':
      // The record after it is re-linked by the writer's own chain: it names the dropped record's parent.
      out.splice(at, 1);
      (out[at] as Record<string, any>).parentUuid = target.parentUuid;
      return { lines: out, expected: `${callAt + 1} missing-tool-result` };
    case 'orphan': {
      const stray = structuredClone(target);
      stray.uuid = 'ffffffff-0000-4000-8000-000000000001';
      stray.parentUuid = target.uuid;
      stray.message.parts[0].functionResponse.id = 'call_stray';
      (out[at + 1] as Record<string, any>).parentUuid = stray.uuid;
      out.splice(at + 1, 0, stray);
      return { lines: out, expected: `${at + 2} orphan-tool-result` };
    }
    case 'duplicate-result': {
      const copy = structuredClone(target);
      copy.uuid = 'ffffffff-0000-4000-8000-000000000002';
      copy.parentUuid = target.uuid;
      (out[at + 1] as Record<string, any>).parentUuid = copy.uuid;
      out.splice(at + 1, 0, copy);
      return { lines: out, expected: `${at + 2} duplicate-tool-result` };
    }
    case 'gap':
      out.splice(at, 1);
      return { lines: out, expected: `${at + 1} unknown-parent` };
    case 'torn-line':
      out.splice(at + 1, 0, JSON.stringify(target).slice(0, 60));
      return { lines: out, expected: `${at + 2} invalid-json` };
  }
}

describe('Qwen Code sessions, generated', () => {
  it('a healthy session has no findings and repair leaves it byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        const input = text(build(shape));
        expect(await scanText(input)).toEqual([]);
        for (const mode of ['discard', 'synthetic'] as const) expect((await repairText(input, mode)).output).toBe(input);
      }),
      { numRuns: 25 },
    );
  });

  it('each break is found on its line, and repair in either mode leaves a session with no errors, every prompt kept, that a second repair does not change', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, fc.constantFrom(...BREAKS), fc.nat(), fc.constantFrom('discard' as const, 'synthetic' as const), async (shape, kind, pick, mode) => {
        const records = build(shape);
        const broken = inject(records, kind, pick);
        fc.pre(broken !== undefined);
        const input = text(broken!.lines);
        const findings = await scanText(input);
        expect(findings.map((f) => `${f.line} ${f.rule}`)).toContain(broken!.expected);
        const once = await repairText(input, mode);
        expect((await scanText(once.output)).filter((f) => f.severity === 'error')).toEqual([]);
        expect(prompts(once.lines)).toEqual(prompts(records));
        expect((await repairText(once.output, mode)).output).toBe(once.output);
      }),
      { numRuns: 60 },
    );
  });
});
