import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanText } from '../../helpers/scan-text.js';
import { repairText } from '../../helpers/repair-tester.js';
import { assistant, call, ghost, jsonl, line, meta, output, reasoning, resetClock, tokens, turnContext, user, userEvent, type CallKind, type Line } from './rollout.js';

const KINDS: CallKind[] = ['function', 'custom', 'shell', 'search'];

/** Per turn: a ghost snapshot or not, and rounds of parallel calls (their kinds, and the order their outputs come in). */
const turnShape = fc.record({
  ghost: fc.boolean(),
  rounds: fc.array(
    fc.array(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 3 }).chain((kinds) => fc.record({ kinds: fc.constant(kinds), order: fc.shuffledSubarray(kinds.map((_, i) => i), { minLength: kinds.length }) })),
    { maxLength: 3 },
  ),
});
const shapes = fc.array(turnShape, { minLength: 2, maxLength: 4 });

type Shape = Array<{ ghost: boolean; rounds: Array<{ kinds: CallKind[]; order: number[] }> }>;

/** Numbers every line as paginated rollouts do: the header is 0. */
function numbered(lines: Line[]): Line[] {
  return lines.map((value, i) => ('torn' in value ? value : { timestamp: value.timestamp, ordinal: i, type: value.type, payload: value.payload }));
}

/** A healthy rollout written the way Codex writes one; `ordinals` numbers every line as paginated rollouts do. */
function build(shape: Shape, ordinals = false): Line[] {
  resetClock();
  const lines: Line[] = [meta()];
  let n = 0;
  shape.forEach(({ ghost: snapshot, rounds }, turn) => {
    lines.push(turnContext(), user(`task ${turn}`), userEvent(`task ${turn}`));
    if (snapshot) lines.push(ghost());
    rounds.forEach(({ kinds, order }) => {
      lines.push(reasoning());
      const ids = kinds.map((kind) => `call_${String(n++).padStart(24, '0')}`);
      kinds.forEach((kind, i) => lines.push(call(kind, ids[i]!)));
      lines.push(tokens());
      for (const i of order) lines.push(output(kinds[i]!, ids[i]!));
    });
    lines.push(line('event_msg', { type: 'agent_message', message: `done ${turn}` }), assistant(`done ${turn}`));
  });
  return ordinals ? numbered(lines) : lines;
}

const isCall = (value: Line) => value.type === 'response_item' && /_call$/.test(value.payload.type);
const isOutput = (value: Line) => value.type === 'response_item' && /_output$/.test(value.payload.type);

const BREAKS = ['drop-output', 'orphan', 'duplicate-output', 'reuse-id', 'output-before-call', 'displace', 'torn-line', 'kept-history', 'reuse-ordinal', 'drop-ordinal'] as const;
/** Breaks only a paginated rollout can have. */
const NUMBERED_ONLY = new Set<Break>(['reuse-ordinal', 'drop-ordinal']);
type Break = (typeof BREAKS)[number];

/**
 * Breaks a healthy rollout; returns the lines, the finding expected (`line rule`) and the calls
 * whose pair the break destroys; undefined when this rollout has no place for the break.
 */
function inject(lines: Line[], kind: Break, pick: number): { lines: Line[]; expected: string; broken: Set<string> } | undefined {
  const out = lines.map((value) => structuredClone(value));
  // Reusing an id needs a later call, displacing an output a later prompt: only such outputs are candidates.
  const laterThan = (value: Line, test: (other: Line) => boolean) => out.slice(out.indexOf(value) + 1).some(test);
  const outputs = out.filter(isOutput).filter((value) =>
    kind === 'reuse-id' ? laterThan(value, isCall) : kind === 'displace' ? laterThan(value, (other) => other.payload?.role === 'user') : true,
  );
  if (outputs.length === 0) return undefined;
  const target = outputs[pick % outputs.length]!;
  const at = out.indexOf(target);
  const id: string = target.payload.call_id;
  const callAt = out.findIndex((value) => isCall(value) && value.payload.call_id === id);
  switch (kind) {
    case 'drop-output':
      out.splice(at, 1);
      return { lines: out, expected: `${callAt + 1} missing-tool-result`, broken: new Set([id]) };
    case 'orphan': {
      const stray = structuredClone(target);
      stray.payload.call_id = 'call_strayStrayStrayStray1';
      out.splice(at + 1, 0, stray);
      return { lines: out, expected: `${at + 2} orphan-tool-result`, broken: new Set() };
    }
    case 'duplicate-output':
      out.splice(at + 1, 0, structuredClone(target));
      return { lines: out, expected: `${at + 2} duplicate-tool-result`, broken: new Set() };
    case 'reuse-id': {
      const later = out.findIndex((value, i) => i > at && isCall(value));
      if (later === -1) return undefined;
      const laterId: string = out[later]!.payload.call_id;
      for (const value of out) if (value.payload?.call_id === laterId) value.payload.call_id = id;
      return { lines: out, expected: `${later + 1} duplicate-tool-call-id`, broken: new Set() };
    }
    case 'output-before-call':
      out.splice(at, 1);
      out.splice(callAt, 0, target);
      return { lines: out, expected: `${callAt + 1} displaced-tool-result`, broken: new Set() };
    case 'torn-line':
      out.splice(at + 1, 0, { torn: JSON.stringify(target).slice(0, 40) });
      return { lines: out, expected: `${at + 2} invalid-json`, broken: new Set() };
    case 'kept-history': {
      const history = [user('kept prompt').payload, { type: 'function_call', name: 'shell_command', arguments: '{}', call_id: 'call_keptKeptKeptKeptKept1' }];
      out.splice(at + 1, 0, line('compacted', { message: 'summary', replacement_history: history }));
      return { lines: out, expected: `${at + 2} kept-history-pairing`, broken: new Set() };
    }
    case 'reuse-ordinal':
      // A resume after an interrupted turn numbers on from an old count: every later line is one behind.
      for (const value of out.slice(at)) value.ordinal -= 1;
      return { lines: out, expected: `${at + 1} sequence-out-of-order`, broken: new Set() };
    case 'drop-ordinal':
      delete out[at]!.ordinal;
      return { lines: out, expected: `${at + 1} missing-sequence-number`, broken: new Set() };
    case 'displace': {
      const next = out.findIndex((value, i) => i > at && value.type === 'response_item' && value.payload.role === 'user');
      if (next === -1) return undefined;
      out.splice(next + 1, 0, target);
      out.splice(at, 1);
      return { lines: out, expected: `${next + 1} displaced-tool-result`, broken: new Set() };
    }
  }
}

/** Call ids that have a call and an output in a rollout. */
function answered(lines: Line[]): Set<string> {
  const outputs = new Set(lines.filter(isOutput).map((value) => value.payload.call_id));
  return new Set(lines.filter((value) => isCall(value) && outputs.has(value.payload.call_id)).map((value) => value.payload.call_id));
}

describe('Codex rollouts, generated', () => {
  it('a healthy rollout, paginated or not, scans clean and repair leaves it byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, fc.boolean(), async (shape, ordinals) => {
        const text = jsonl(build(shape, ordinals));
        expect(await scanText(text)).toEqual([]);
        for (const mode of ['discard', 'synthetic'] as const) expect((await repairText(text, mode)).output).toBe(text);
      }),
      { numRuns: 30 },
    );
  });

  it('every injected break, paginated or not, is flagged on its line (as an error, but for the line numbers Codex itself reads past); repair in both modes leaves it clean, numbered without repeat or gap, loses no prompt and no answered call, and is idempotent', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, fc.constantFrom(...BREAKS), fc.nat(), fc.boolean(), async (shape, kind, pick, paginated) => {
        if (NUMBERED_ONLY.has(kind) && !paginated) return;
        // Pairing breaks are made first and numbered after, so the numbers break only where a break says.
        const broken = NUMBERED_ONLY.has(kind) ? inject(build(shape, true), kind, pick) : inject(build(shape), kind, pick);
        if (broken === undefined) return;
        if (paginated && !NUMBERED_ONLY.has(kind)) broken.lines = numbered(broken.lines);
        const findings = await scanText(jsonl(broken.lines));
        const graded = NUMBERED_ONLY.has(kind) ? findings : findings.filter((f) => f.severity === 'error');
        expect(graded.map((f) => `${f.line} ${f.rule}`)).toContain(broken.expected);
        const prompts = broken.lines.filter((value) => value.payload?.role === 'user').length;
        const kept = [...answered(broken.lines)].filter((id) => !broken.broken.has(id));
        for (const mode of ['discard', 'synthetic'] as const) {
          const once = await repairText(jsonl(broken.lines), mode);
          expect(once.report.findings, `${kind} ${mode}`).toEqual([]);
          expect(await scanText(once.output), `${kind} ${mode}`).toEqual([]);
          expect((await repairText(once.output, mode)).output, `${kind} ${mode}`).toBe(once.output);
          expect(once.lines.filter((value) => value.payload?.role === 'user').length).toBe(prompts);
          const after = answered(once.lines);
          for (const id of kept) expect(after.has(id), `${kind} ${mode}: answered call ${id} kept`).toBe(true);
          if (paginated) expect(once.lines.map((value) => value.ordinal), `${kind} ${mode}`).toEqual(once.lines.map((_, i) => i));
        }
      }),
      { numRuns: 60 },
    );
  });
});
