import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanText } from '../helpers/scan-text.js';
import { glueLines } from '../helpers/glue.js';
import { repairText } from '../helpers/repair-tester.js';

type Line = Record<string, any>;

/** Per turn: whether the response starts with signed thinking, and its rounds of parallel calls. */
const shapes = fc.array(fc.record({ thinking: fc.boolean(), rounds: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 3 }) }), { minLength: 2, maxLength: 5 });

/** A healthy Claude Code session written the way Claude Code writes it: one block per line. */
function build(shape: Array<{ thinking: boolean; rounds: number[] }>): Line[] {
  const lines: Line[] = [];
  let last: string | null = null;
  let n = 0;
  const envelope = { isSidechain: false, userType: 'external', cwd: '/workspace/p', sessionId: '00000000-0000-4000-8000-000000000000', version: '2.1.19' };
  const push = (type: string, message: Line, parent: string | null = last): Line => {
    const uuid = `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}`;
    const line = { parentUuid: parent, ...envelope, type, message, uuid, timestamp: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z` };
    lines.push(line);
    last = uuid;
    return line;
  };
  const assistant = (id: string, block: Line) => ({ model: 'claude-x', id, type: 'message', role: 'assistant', content: [block], stop_reason: null });
  shape.forEach(({ thinking, rounds }, turn) => {
    push('user', { role: 'user', content: `task ${turn}` });
    rounds.forEach((calls, round) => {
      const id = `msg_${turn}_${round}`;
      if (thinking && round === 0) push('assistant', assistant(id, { type: 'thinking', thinking: 'plan', signature: 'c2lnbmVk' }));
      const uses = Array.from({ length: calls }, (_, k) => push('assistant', assistant(id, { type: 'tool_use', id: `toolu_${turn}_${round}_${k}`, name: 'Bash', input: {} })));
      // Parallel results hang off their own call line; the next line follows the last result.
      for (const use of uses) {
        push('user', { role: 'user', content: [{ tool_use_id: use.message.content[0].id, type: 'tool_result', content: 'ok', is_error: false }] }, use.uuid);
      }
    });
    push('assistant', assistant(`msg_${turn}_end`, { type: 'text', text: `done ${turn}` }));
  });
  return lines;
}

const CORRUPTIONS = ['drop-result', 'orphan', 'text-before-result', 'empty-text', 'garbage-line', 'torn-tail', 'blank-text-line', 'reuse-call-id', 'invalid-tool-name', 'glue-lines'] as const;
type Corruption = (typeof CORRUPTIONS)[number];

/** Breaks a healthy session; returns the raw lines and the uuids of lines it changed. */
function corrupt(lines: Line[], kinds: Corruption[], seed: number): { raw: string[]; records: string[]; touched: Set<string>; tail: boolean } {
  const out = lines.map((line) => structuredClone(line));
  const touched = new Set<string>();
  let random = seed;
  const pick = <T>(items: T[]): T | undefined => (items.length === 0 ? undefined : items[(random = (random * 1103515245 + 12345) >>> 0) % items.length]);
  const results = () => out.filter((l) => l.type === 'user' && Array.isArray(l.message.content) && l.message.content[0]?.type === 'tool_result');
  // A call that loses its result breaks its whole response, every line of it.
  // An id may be on several calls once one reuses another's: each of them may be the one that breaks.
  const touchCall = (id: string) => {
    for (const call of out.filter((l) => l.message?.content?.[0]?.id === id)) out.filter((l) => l.message?.id === call.message.id).forEach((l) => touched.add(l.uuid));
  };
  const garbage: number[] = [];
  const glue: number[] = [];
  let tail = false;
  for (const kind of kinds) {
    switch (kind) {
      case 'drop-result': {
        const result = pick(results());
        if (result === undefined) break;
        out.splice(out.indexOf(result), 1);
        for (const line of out) {
          if (line.parentUuid !== result.uuid) continue;
          line.parentUuid = result.parentUuid;
          touched.add(line.uuid);
        }
        touchCall(result.message.content[0].tool_use_id);
        break;
      }
      case 'orphan': {
        const result = pick(results());
        if (result === undefined) break;
        touchCall(result.message.content[0].tool_use_id);
        result.message.content[0].tool_use_id = 'toolu_nobody';
        touched.add(result.uuid);
        break;
      }
      case 'text-before-result': {
        const result = pick(results());
        if (result === undefined) break;
        result.message.content.unshift({ type: 'text', text: 'note' });
        touched.add(result.uuid);
        break;
      }
      case 'empty-text': {
        const reply = pick(out.filter((l) => l.message?.content?.[0]?.type === 'text'));
        if (reply === undefined) break;
        reply.message.content.push({ type: 'text', text: '' });
        touched.add(reply.uuid);
        break;
      }
      case 'garbage-line':
        garbage.push(Math.max(1, (random = (random * 1103515245 + 12345) >>> 0) % out.length));
        break;
      case 'torn-tail':
        tail = true;
        break;
      case 'blank-text-line': {
        // A response line holding nothing but whitespace text, between the turn's answer and what it follows.
        const reply = pick(out.filter((l) => l.type === 'assistant' && l.message.content[0]?.type === 'text'));
        if (reply === undefined) break;
        const blank = structuredClone(reply);
        blank.uuid = `${reply.uuid.slice(0, -4)}beef`;
        blank.message.content = [{ type: 'text', text: ' \n' }];
        reply.parentUuid = blank.uuid;
        out.splice(out.indexOf(reply), 0, blank);
        touched.add(blank.uuid).add(reply.uuid);
        break;
      }
      case 'reuse-call-id': {
        // A later call takes the id of the first call; its result follows it.
        const calls = out.filter((l) => l.message?.content?.[0]?.type === 'tool_use');
        if (calls.length < 2) break;
        const first = calls[0]!.message.content[0].id;
        const later = pick(calls.slice(1))!;
        // Wherever the result block sits: another corruption may have put text before it.
        for (const line of out) {
          if (line.type !== 'user' || !Array.isArray(line.message.content)) continue;
          for (const block of line.message.content) {
            if (block.type !== 'tool_result' || block.tool_use_id !== later.message.content[0].id) continue;
            block.tool_use_id = first;
            touched.add(line.uuid);
          }
        }
        later.message.content[0].id = first;
        touched.add(later.uuid);
        break;
      }
      case 'invalid-tool-name': {
        const call = pick(out.filter((l) => l.message?.content?.[0]?.type === 'tool_use'));
        if (call === undefined) break;
        touchCall(call.message.content[0].id);
        for (const line of results()) if (line.message.content[0].tool_use_id === call.message.content[0].id) touched.add(line.uuid);
        call.message.content[0].name = 'Bash<|tool_call_argument_begin|>';
        break;
      }
      case 'glue-lines':
        glue.push(1 + ((random = (random * 1103515245 + 12345) >>> 0) % Math.max(1, out.length - 1)));
        break;
    }
  }
  const raw = out.map((line) => JSON.stringify(line));
  for (const at of garbage.sort((a, b) => b - a)) raw.splice(at, 0, '{"parentUuid":"00000000-0000-4000-8000-0000000');
  if (tail) raw.push('{"parentUuid":"00000000-0000-4000-8000-000000000001","type":"assistant","mess');
  const records = [...raw];
  glueLines(raw, glue);
  return { raw, records, touched, tail };
}

describe('Claude Code repair properties', () => {
  it('any mix of corruptions: no errors left, idempotent, untouched lines byte for byte, prompts kept', async () => {
    await fc.assert(
      fc.asyncProperty(
        shapes,
        fc.array(fc.constantFrom(...CORRUPTIONS), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.constantFrom('discard' as const, 'synthetic' as const),
        async (shape, kinds, seed, mode) => {
          const original = build(shape);
          const { raw, records, touched, tail } = corrupt(original, kinds, seed);
          const first = await repairText(raw.join('\n') + (tail ? '' : '\n'), mode);

          const rescan = await scanText(first.output);
          expect(rescan.filter((f) => f.severity === 'error').map((f) => `${f.line} ${f.rule}`)).toEqual([]);
          expect(first.report.findings.map((f) => `${f.line} ${f.rule}`)).toEqual(rescan.map((f) => `${f.line} ${f.rule}`));
          expect((await repairText(first.output, mode)).report.repair.changed).toBe(false);

          // Lines nobody broke are written as they were, unless the repair had to relink them.
          const written = new Set(first.output.split('\n'));
          const kept = new Map(first.lines.map((line) => [line.uuid, line]));
          // Results of a broken turn may go with it (a signed turn is dropped whole).
          const brokenCalls = new Set(records.filter((line) => touched.has(/"uuid":"([^"]+)"/.exec(line)?.[1] ?? '')).flatMap((line) => [...line.matchAll(/"id":"(toolu_[^"]+)"/g)].map((m) => m[1])));
          // Records glued onto one line come out on lines of their own.
          for (const line of records) {
            const uuid = /"uuid":"([^"]+)"/.exec(line)?.[1];
            if (uuid === undefined || touched.has(uuid) || brokenCalls.has(/"tool_use_id":"([^"]+)"/.exec(line)?.[1] ?? '')) continue;
            expect(kept.has(uuid), `kept: ${line.slice(0, 90)}`).toBe(true);
            const relinked = kept.get(uuid)!.parentUuid !== JSON.parse(line).parentUuid;
            if (!relinked) expect(written.has(line), `byte for byte: ${line.slice(0, 90)}`).toBe(true);
          }
          for (const line of original) if (line.type === 'user' && typeof line.message.content === 'string') expect(kept.has(line.uuid)).toBe(true);
        },
      ),
      { numRuns: Number(process.env.TD_PROPERTY_RUNS ?? 100) },
    );
  });

  // Found by the property above. A result line that hung off the first call kept only its text
  // once its orphan result went: the results must still come right after the calls, and the next
  // turn must follow the whole chain instead of hanging off the last call line, which would leave
  // the results out of the replay.
  it.each([
    ['synthetic', ['orphan', 'text-before-result', 'drop-result'], ['toolu_0_0_0', 'toolu_0_0_1']],
    ['discard', ['orphan', 'text-before-result'], ['toolu_0_0_1']],
  ] as const)('%s: the results follow the calls, then the text left of the orphan, then the next turn', async (mode, kinds, answered) => {
    const shape = [{ thinking: false, rounds: [2] }, { thinking: false, rounds: [] }];
    const { raw } = corrupt(build(shape), [...kinds], 1);
    const { output, lines } = await repairText(raw.join('\n') + '\n', mode);
    expect((await scanText(output)).filter((f) => f.severity === 'error')).toEqual([]);
    const byUuid = new Map(lines.map((line) => [line.uuid, line]));
    // Walk back from the answer of turn 0 to the call lines.
    const between: Line[] = [];
    let line = byUuid.get(lines.find((l) => l.message?.content?.[0]?.text === 'done 0')!.parentUuid)!;
    for (; line.type !== 'assistant'; line = byUuid.get(line.parentUuid)!) between.unshift(line);
    expect(between.map((l) => l.message.content[0].tool_use_id ?? l.message.content[0].text)).toEqual([...answered, 'note']);
  });
});
