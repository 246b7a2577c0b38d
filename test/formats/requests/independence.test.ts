import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repairRewrite, rewriteInput } from '../../../src/pipeline/rewrite.js';
import { scanFile } from '../../../src/pipeline/scan.js';
import { pairingProblems } from './contract.js';

type Kind = 'healthy' | 'unanswered' | 'orphan' | 'plain' | 'blank';

/** A seeded generator, so a failure names a dataset that can be made again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * One conversation with one call, in one of the four shapes: answered (healthy), left unanswered,
 * or only its result (an orphan). Ids repeat across lines on purpose: the call of one line and the
 * result of the next share theirs, and neither may pair with the other.
 */
function line(shape: number, kind: Kind, id: string): unknown {
  if (kind === 'plain' || kind === 'blank') return chat(shape, kind === 'blank' ? '  ' : `hello ${id}`);
  const call = kind !== 'orphan';
  const result = kind !== 'unanswered';
  switch (shape) {
    case 0:
      return {
        messages: [
          { role: 'user', content: `look up ${id}` },
          ...(call ? [{ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'lookup', arguments: '{}' } }] }] : []),
          ...(result ? [{ role: 'tool', tool_call_id: id, content: 'found' }] : []),
          { role: 'user', content: 'thanks' },
        ],
      };
    case 1:
      return {
        model: 'claude-x',
        system: 'be brief',
        messages: [
          { role: 'user', content: `look up ${id}` },
          ...(call ? [{ role: 'assistant', content: [{ type: 'tool_use', id, name: 'lookup', input: {} }] }] : []),
          ...(result ? [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'found' }] }] : []),
          { role: 'assistant', content: 'done' },
        ],
      };
    case 2:
      return {
        input: [
          { role: 'user', content: `look up ${id}` },
          ...(call ? [{ type: 'function_call', call_id: id, name: 'lookup', arguments: '{}' }] : []),
          ...(result ? [{ type: 'function_call_output', call_id: id, output: 'found' }] : []),
          { role: 'user', content: 'thanks' },
        ],
      };
    default:
      return {
        contents: [
          { role: 'user', parts: [{ text: `look up ${id}` }] },
          ...(call ? [{ role: 'model', parts: [{ functionCall: { id, name: 'lookup', args: {} } }] }] : []),
          ...(result ? [{ role: 'user', parts: [{ functionResponse: { id, name: 'lookup', response: { output: 'found' } } }] }] : []),
          { role: 'model', parts: [{ text: 'done' }] },
        ],
      };
  }
}

/** A conversation without tool calls in one of the four shapes; its first user message says `text`. */
function chat(shape: number, text: string): unknown {
  switch (shape) {
    case 0:
      return { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: text }, { role: 'assistant', content: 'hi' }, { role: 'user', content: 'bye' }] };
    case 1:
      return { system: 'be brief', messages: [{ role: 'user', content: [{ type: 'text', text }] }, { role: 'assistant', content: [{ type: 'text', text: 'hi ' }] }] };
    case 2:
      return { input: [{ role: 'user', content: text }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] }] };
    default:
      return { contents: [{ role: 'user', parts: [{ text }] }, { role: 'model', parts: [{ text: 'hi' }] }] };
  }
}

/** What a report says, with the line it says it of taken out. */
const said = (findings: ReadonlyArray<{ rule: string; severity: string; pointer: string; message: string; providerError?: string }>) =>
  findings.map(({ rule, severity, pointer, message, providerError }) => ({ rule, severity, pointer, message, providerError }));

describe('requests: each line is judged on its own', () => {
  it('judges and repairs every line of a mixed dataset as it would the line alone, plain chats and lines with calls alike', async () => {
    const next = random(30);
    const kinds: Kind[] = ['healthy', 'unanswered', 'orphan', 'plain', 'blank'];
    const text = Array.from({ length: 400 }, (_, n) => JSON.stringify(line(Math.floor(next() * 4), kinds[Math.floor(next() * kinds.length)]!, `call_${n}`)));
    const dir = mkdtempSync(join(tmpdir(), 'td-requests-alone-'));
    const source = join(dir, 'dataset.jsonl');
    writeFileSync(source, text.join('\n') + '\n');
    const alone = (n: number): string => {
      const file = join(dir, `line-${n}.jsonl`);
      writeFileSync(file, text[n] + '\n');
      return file;
    };

    const report = await scanFile(source);
    let found = 0;
    for (let n = 0; n < text.length; n++) {
      const own = report.findings.filter((finding) => finding.line === n + 1);
      found += own.length;
      expect(said(own), `line ${n + 1}`).toEqual(said((await scanFile(alone(n))).findings));
    }
    // Plain chats with a blank message and lines with unpaired calls both have something to say.
    expect(found).toBeGreaterThan(100);

    for (const mode of ['discard', 'synthetic'] as const) {
      const out = join(dir, `${mode}.jsonl`);
      await rewriteInput(source, undefined, repairRewrite(mode), { kind: 'file', path: out });
      const lines = readFileSync(out, 'utf8').split('\n').slice(0, -1);
      expect(lines).toHaveLength(text.length);
      let changed = 0;
      for (let n = 0; n < text.length; n += 4) {
        const own = join(dir, `line-${n}-${mode}.jsonl`);
        await rewriteInput(alone(n), undefined, repairRewrite(mode), { kind: 'file', path: own });
        expect(lines[n], `line ${n + 1}`).toBe(readFileSync(own, 'utf8').slice(0, -1));
        if (lines[n] !== text[n]) changed += 1;
      }
      expect(changed).toBeGreaterThan(20);
    }
  });


  it('a call in one line is never answered by the next, across 3,000 generated lines of all four shapes', async () => {
    const next = random(16);
    const kinds: Kind[] = [];
    const text: string[] = [];
    for (let n = 0; n < 3000; n++) {
      const roll = next();
      // An unanswered call is followed by an orphan result with the same id, in the same shape.
      const kind: Kind = kinds[n - 1] === 'unanswered' ? 'orphan' : roll < 0.08 ? 'unanswered' : 'healthy';
      const shape = kind === 'orphan' ? Number(text[n - 1]!.startsWith('{"model"')) + 2 * Number(text[n - 1]!.startsWith('{"input"')) + 3 * Number(text[n - 1]!.startsWith('{"contents"')) : Math.floor(next() * 4);
      kinds.push(kind);
      text.push(JSON.stringify(line(shape, kind, kind === 'orphan' ? `call_${n - 1}` : `call_${n}`)));
    }
    const dir = mkdtempSync(join(tmpdir(), 'td-requests-many-'));
    const source = join(dir, 'dataset.jsonl');
    writeFileSync(source, text.join('\n') + '\n');

    const report = await scanFile(source);
    const expected = kinds.flatMap((kind, n) => (kind === 'unanswered' ? [`${n + 1} missing-tool-result`] : kind === 'orphan' ? [`${n + 1} orphan-tool-result`] : []));
    expect(expected.length).toBeGreaterThan(300);
    expect(report.findings.map((f) => `${f.line} ${f.rule}`)).toEqual(expected);

    for (const mode of ['discard', 'synthetic'] as const) {
      const out = join(dir, `${mode}.jsonl`);
      const repaired = await rewriteInput(source, undefined, repairRewrite(mode), { kind: 'file', path: out });
      expect(repaired.findings).toEqual([]);
      const lines = readFileSync(out, 'utf8').split('\n').slice(0, -1);
      expect(lines).toHaveLength(text.length);
      lines.forEach((written, n) => {
        expect(pairingProblems(JSON.parse(written)), `line ${n + 1}`).toEqual([]);
        if (kinds[n] === 'healthy') expect(written).toBe(text[n]);
        // The orphan's result goes; the line before keeps its own call (synthetic) or loses it (discard), never borrowing the orphan.
        if (kinds[n] === 'orphan') expect(written).not.toContain('found');
      });
    }
  });
});
