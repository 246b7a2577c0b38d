import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repairRewrite, rewriteInput } from '../../src/pipeline/rewrite.js';
import { scanFile, scanSource } from '../../src/pipeline/scan.js';
// @ts-expect-error the bench's generator is a plain Node script
import { generateRequests } from '../../bench/requests.mjs';

// The conversations of a dataset take turns in one store (its columns, id tables and pairing
// slots kept from line to line). Whatever a line leaves behind must not change how the next
// one is judged or repaired: every line must come out as it does when it is the only line.

const LINES = 1500;

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const ODD = [
  { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'Hi' }] }, { role: 'assistant', content: [{ type: 'text', text: '  ' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }, { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: PNG_1PX } }] }] },
  { contents: [{ role: 'user', parts: [{ text: 'go' }] }, { role: 'model', parts: [{ functionCall: { name: 'read', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { name: '', response: {} } }] }, { role: 'model', parts: [{ text: ' ' }] }] },
  { messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: ' read ', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c1', content: '' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'again' }] },
].map((line) => JSON.stringify(line));
let dir: string;
let lines: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'td-conversation-store-'));
  const file = join(dir, 'dataset.jsonl');
  // Enough lines that the shared call-id table is cleared many times over, four shapes, ~1.5% broken.
  await generateRequests(file, LINES, { seed: 11 });
  lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  // Every 50th line something the generator never writes: facts kept beside the columns (blank
  // text, nameless results and calls, images, a call id in two turns), for the next line to inherit if the store kept them.
  for (let at = 25; at < lines.length; at += 50) lines.splice(at, 0, ODD[Math.floor(at / 50) % ODD.length]!);
  writeFileSync(file, lines.join('\n') + '\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alone = (line: string) => scanSource('line.jsonl', Readable.from([Buffer.from(line + '\n')]));

describe('a store reused line after line', () => {
  it('finds on each line of a file exactly what it finds on that line alone', async () => {
    const whole = await scanFile(join(dir, 'dataset.jsonl'));
    const single = (await Promise.all(lines.map(async (line, i) => (await alone(line)).findings.map((finding) => ({ ...finding, line: i + 1 }))))).flat();
    expect(whole.findings.length).toBeGreaterThan(10);
    expect(whole.findings).toEqual(single);
  });

  it('repairs each line of a file to exactly the bytes it gets alone', async () => {
    const out = join(dir, 'repaired.jsonl');
    await rewriteInput(join(dir, 'dataset.jsonl'), undefined, repairRewrite('synthetic'), { kind: 'file', path: out });
    const repaired = readFileSync(out, 'utf8').trimEnd().split('\n');
    const one = join(dir, 'one.jsonl');
    const oneOut = join(dir, 'one-out.jsonl');
    let changed = 0;
    for (const [i, line] of lines.entries()) {
      // A line with nothing to find is left as it is; the others are repaired alone.
      if ((await alone(line)).findings.length === 0) {
        expect(repaired[i]).toBe(line);
        continue;
      }
      writeFileSync(one, line + '\n');
      await rewriteInput(one, undefined, repairRewrite('synthetic'), { kind: 'file', path: oneOut });
      const single = readFileSync(oneOut, 'utf8').trimEnd();
      if (single !== line) changed += 1;
      expect(repaired[i]).toBe(single);
    }
    expect(repaired.length).toBe(lines.length);
    expect(changed).toBeGreaterThan(5);
  });
});
