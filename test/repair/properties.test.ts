import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanText } from '../helpers/scan-text.js';
import { call, Session, text } from '../helpers/session.js';
import { glueLines, isJson } from '../helpers/glue.js';
import { repairText } from '../helpers/repair-tester.js';

type Line = Record<string, any>;

/** A healthy linear session; each turn is a list of tool rounds (number of parallel calls). */
const shapes = fc.array(fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 3 }), { minLength: 2, maxLength: 6 });

function build(shape: number[][], branchAt: number): Line[] {
  const session = new Session();
  let n = 0;
  shape.forEach((rounds, turn) => {
    session.user(`task ${turn}`);
    for (const calls of rounds) {
      const ids = Array.from({ length: calls }, () => `toolu_${(n++).toString().padStart(4, '0')}`);
      session.calls(...ids.map((id) => call(id, 'exec')));
      for (const id of ids) session.result(id, 'exec');
    }
    session.reply(`done ${turn}`);
    // An abandoned branch: a retried prompt and its answer hang off this turn's first message.
    if (turn === branchAt) {
      const anchor = JSON.parse(session.lines[session.lines.length - 1]!).id;
      session.user('first try', { parent: anchor, id: `bra${turn}0000`.slice(0, 8) }).reply('abandoned answer');
      session.last = anchor;
    }
  });
  return session.lines.map((line) => JSON.parse(line));
}

const CORRUPTIONS = [
  'drop-result',
  'displace-result',
  'swap-results',
  'synthetic-duplicate',
  'orphan',
  'aborted-turn',
  'partial-call',
  'blank-tool-name',
  'garbage-line',
  'empty-error-turn',
  'blank-user',
  'torn-tail',
  'glue-lines',
  'reuse-call-id',
  'copy-entry',
  'invalid-tool-name',
  'padded-tool-name',
] as const;
type Corruption = (typeof CORRUPTIONS)[number];

/**
 * Applies corruptions to a linear session, keeping parent links consistent where the corruption
 * is not about links, and returns the raw lines plus the indices of lines it touched.
 */
function corrupt(lines: Line[], kinds: Corruption[], seed: number): { raw: string[]; records: string[]; touched: Set<string> } {
  const out: Line[] = lines.map((line) => ({ ...line, message: line.message && { ...line.message } }));
  const touched = new Set<string>();
  let random = seed;
  const pick = <T>(items: T[]): T | undefined => (items.length === 0 ? undefined : items[(random = (random * 1103515245 + 12345) >>> 0) % items.length]);
  const results = () => out.filter((l) => l.message?.role === 'toolResult');
  const owner = (result: Line): Line | undefined => out.find((l) => l.message?.role === 'assistant' && l.message.content.some((b: any) => b.id === result.message.toolCallId));
  const relinkAfter = (index: number, parentId: string) => {
    if (out[index + 1] !== undefined) {
      out[index + 1]!.parentId = parentId;
      touched.add(out[index + 1]!.id);
    }
  };
  const garbage: Array<{ at: number; raw: string }> = [];
  const glue: number[] = [];
  const copies: number[] = [];
  let made = 0;
  const freshId = (prefix: string) => `${prefix}${(made++).toString(16).padStart(5, '0')}`;
  for (const kind of kinds) {
    const result = pick(results());
    const at = result === undefined ? -1 : out.indexOf(result);
    switch (kind) {
      case 'drop-result':
        if (at < 0) break;
        relinkAfter(at, result!.parentId);
        const from = owner(result!);
        if (from !== undefined) touched.add(from.id);
        out.splice(at, 1);
        break;
      case 'displace-result': {
        if (at < 0) break;
        const next = out.findIndex((l, i) => i > at && l.message?.role === 'user');
        if (next < 0) break;
        relinkAfter(at, result!.parentId);
        out.splice(at, 1);
        const target = next - 1;
        result!.parentId = out[target]!.id;
        relinkAfter(target, result!.id);
        out.splice(target + 1, 0, result!);
        touched.add(result!.id);
        // The next user message may sit on an abandoned branch: then the call is unanswered where it stands.
        const from = owner(result!);
        if (from !== undefined) touched.add(from.id);
        break;
      }
      case 'swap-results': {
        if (at < 1 || out[at - 1]!.message?.role !== 'toolResult') break;
        const prev = out[at - 1]!;
        [prev.message, result!.message] = [result!.message, prev.message];
        touched.add(prev.id).add(result!.id);
        break;
      }
      case 'synthetic-duplicate': {
        if (at < 0) break;
        const copy: Line = { ...result!, id: freshId('dup'), message: { ...result!.message, isError: true, content: [text('[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair.')] } };
        copy.parentId = result!.parentId;
        result!.parentId = copy.id;
        out.splice(at, 0, copy);
        touched.add(copy.id).add(result!.id);
        break;
      }
      case 'orphan': {
        const user = pick(out.filter((l) => l.message?.role === 'user'));
        if (user === undefined) break;
        const i = out.indexOf(user);
        const orphan = { type: 'message', id: freshId('orp'), parentId: user.id, timestamp: user.timestamp, message: { role: 'toolResult', toolCallId: `toolu_gone${i}`, toolName: 'exec', content: [text('x')], isError: false } };
        relinkAfter(i, orphan.id);
        out.splice(i + 1, 0, orphan);
        touched.add(orphan.id);
        break;
      }
      case 'aborted-turn': {
        const turn = pick(out.filter((l) => l.message?.role === 'assistant' && l.message.stopReason === 'toolUse'));
        if (turn === undefined) break;
        turn.message = { ...turn.message, stopReason: 'aborted', errorMessage: 'Request was aborted' };
        touched.add(turn.id);
        for (const l of out) if (l.message?.role === 'toolResult' && turn.message.content.some((b: any) => b.id === l.message.toolCallId)) touched.add(l.id);
        break;
      }
      case 'partial-call': {
        const turn = pick(out.filter((l) => l.message?.role === 'assistant' && l.message.stopReason === 'toolUse'));
        if (turn === undefined) break;
        const content = turn.message.content.map((b: any) => ({ ...b }));
        const block = content.find((b: any) => b.type === 'toolCall');
        delete block.arguments;
        turn.message = { ...turn.message, content };
        touched.add(turn.id);
        for (const l of out) if (l.message?.toolCallId === block.id) touched.add(l.id);
        break;
      }
      case 'blank-tool-name':
        if (at < 0) break;
        result!.message = { ...result!.message, toolName: ' ' };
        touched.add(result!.id);
        break;
      case 'garbage-line':
        garbage.push({ at: Math.floor(out.length / 2), raw: '{"type":"message","id":"zzzz' });
        break;
      case 'empty-error-turn': {
        const user = pick(out.filter((l) => l.message?.role === 'user'));
        if (user === undefined) break;
        const i = out.indexOf(user);
        const failed = { type: 'message', id: freshId('err'), parentId: user.id, timestamp: user.timestamp, message: { role: 'assistant', content: [], api: 'anthropic-messages', provider: 'anthropic', model: 'm', usage: {}, stopReason: 'error', errorMessage: 'terminated' } };
        relinkAfter(i, failed.id);
        out.splice(i + 1, 0, failed);
        touched.add(failed.id);
        break;
      }
      case 'blank-user': {
        const user = pick(out.filter((l) => l.message?.role === 'user'));
        if (user === undefined) break;
        user.message = { ...user.message, content: '  ' };
        touched.add(user.id);
        break;
      }
      case 'torn-tail':
        garbage.push({ at: -1, raw: '{"type":"message","id":"tail0000","parentId":"' });
        break;
      case 'glue-lines':
        glue.push(1 + ((random = (random * 1103515245 + 12345) >>> 0) % Math.max(1, out.length - 1)));
        break;
      case 'reuse-call-id': {
        // A later call takes an earlier call's id, as Kimi's per-turn numbering does; its results follow it.
        const turns = out.filter((l) => l.message?.role === 'assistant' && l.message.stopReason === 'toolUse');
        if (turns.length < 2) break;
        const earlier = turns[0]!.message.content.find((b: any) => b.type === 'toolCall');
        const later = pick(turns.slice(1))!;
        const content = later.message.content.map((b: any) => ({ ...b }));
        const block = content.find((b: any) => b.type === 'toolCall');
        for (const l of out) {
          if (l.message?.role !== 'toolResult' || l.message.toolCallId !== block.id) continue;
          l.message = { ...l.message, toolCallId: earlier.id };
          touched.add(l.id);
        }
        block.id = earlier.id;
        later.message = { ...later.message, content };
        touched.add(later.id);
        break;
      }
      case 'copy-entry':
        // Done last, on the written lines, so no other corruption re-links one copy and not the other.
        copies.push((random = (random * 1103515245 + 12345) >>> 0));
        break;
      case 'invalid-tool-name':
      case 'padded-tool-name': {
        const turn = pick(out.filter((l) => l.message?.role === 'assistant' && l.message.stopReason === 'toolUse'));
        if (turn === undefined) break;
        const content = turn.message.content.map((b: any) => ({ ...b }));
        const block = content.find((b: any) => b.type === 'toolCall');
        block.name = kind === 'padded-tool-name' ? ` ${block.name} ` : `${block.name}<|tool_call_argument_begin|>{"command"`;
        turn.message = { ...turn.message, content };
        touched.add(turn.id);
        for (const l of out) if (l.message?.toolCallId === block.id) touched.add(l.id);
        break;
      }
    }
  }
  const raw = out.map((line) => JSON.stringify(line));
  // An entry written twice: the same line again right after it, another time of writing.
  for (const n of copies) {
    const users = raw.filter((line) => line.includes('"role":"user"'));
    const user = users[n % Math.max(1, users.length)];
    if (user === undefined) continue;
    raw.splice(raw.indexOf(user) + 1, 0, user.replace(/"timestamp":"[^"]*"/, '"timestamp":"2026-01-02T00:00:00.000Z"'));
    touched.add(JSON.parse(user).id);
  }
  for (const { at, raw: text } of garbage.filter((g) => g.at >= 0)) raw.splice(at, 0, text);
  if (garbage.some((g) => g.at < 0)) raw.push(garbage.find((g) => g.at < 0)!.raw);
  const records = [...raw];
  glueLines(raw, glue);
  return { raw, records, touched };
}

describe('repair properties', () => {
  it('any mix of corruptions: clean result, idempotent, untouched lines byte for byte, pairs and users kept', async () => {
    await fc.assert(
      fc.asyncProperty(
        shapes,
        fc.integer({ min: -1, max: 5 }),
        fc.array(fc.constantFrom(...CORRUPTIONS), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.constantFrom('discard' as const, 'synthetic' as const),
        async (shape, branchAt, kinds, seed, mode) => {
          const original = build(shape, branchAt);
          const { raw, records, touched } = corrupt(original, kinds, seed);
          const input = raw.join('\n') + (kinds.includes('torn-tail') ? '' : '\n');
          const first = await repairText(input, mode);

          // The model's view of what is left matches a fresh scan of the written file.
          const rescan = await scanText(first.output);
          expect(first.report.findings.map((f) => `${f.line} ${f.rule}`)).toEqual(rescan.map((f) => `${f.line} ${f.rule}`));
          expect(rescan.filter((f) => f.severity === 'error')).toEqual([]);

          const second = await repairText(first.output, mode);
          expect(second.report.repair.changed).toBe(false);

          const written = new Set(first.output.split('\n'));
          const neighbours = new Set<string>();
          // A touched line's successor may be re-linked to it; broken lines in between do not count.
          // Records glued onto one line come out on lines of their own, byte for byte.
          const parseable = records.filter(isJson);
          parseable.forEach((line, i) => {
            const id = /"id":"([^"]+)"/.exec(line)?.[1];
            if (id !== undefined && touched.has(id) && parseable[i + 1] !== undefined) neighbours.add(parseable[i + 1]!);
          });
          for (const line of parseable) {
            const id = /"id":"([^"]+)"/.exec(line)?.[1];
            if (id === undefined || touched.has(id) || neighbours.has(line)) continue;
            expect(written.has(line), `line kept byte for byte: ${line.slice(0, 80)}`).toBe(true);
          }
          const ids = new Set(first.lines.map((l) => l.id));
          for (const line of original) if (line.message?.role === 'user' && !touched.has(line.id)) expect(ids.has(line.id)).toBe(true);
        },
      ),
      { numRuns: Number(process.env.TD_PROPERTY_RUNS ?? 150) },
    );
  });

  it('repairs every bundled fixture to a clean, stable result', async () => {
    for (const name of ['demo/e0b11ca0-75b4-4eef-8961-955e55832882.jsonl', 'demo/f787cf70-51e3-4c8b-9204-2dfbea70be02.jsonl', 'pi/healthy.jsonl']) {
      const input = readFileSync(`fixtures/${name}`);
      const first = await repairText(input, 'discard');
      expect(first.report.findings.filter((f) => f.severity === 'error')).toEqual([]);
      expect((await repairText(first.output, 'discard')).report.repair.changed).toBe(false);
    }
  });
});
