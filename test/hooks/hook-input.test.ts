import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_HOOK_INPUT, readHookInput } from '../../src/hooks/hook-input.js';

// The hook input as the agent sends it: whole up to the bound, one message otherwise, and never a wait without end.

const sent = (chunks: readonly (string | Buffer)[], end = true) => {
  const stream = new PassThrough();
  setImmediate(() => {
    for (const chunk of chunks) stream.write(chunk);
    if (end) stream.end();
  });
  return stream;
};

describe('readHookInput', () => {
  it('reads an object whole, in however many chunks, up to the bound', async () => {
    const big = JSON.stringify({ transcript_path: '/s.jsonl', prompt: 'x'.repeat(2_000_000) });
    const chunks = big.match(/[^]{1,65536}/g)!;
    await expect(readHookInput(sent(chunks))).resolves.toMatchObject({ transcript_path: '/s.jsonl' });
    expect(MAX_HOOK_INPUT).toBe(16 * 1024 * 1024);
  });

  it('above the bound: reads on to the end (the agent never meets a closed pipe), then says so', async () => {
    const stream = sent(['{"a":"', 'x'.repeat(100), '"}']);
    await expect(readHookInput(stream, 64)).rejects.toThrow(/^the hook input on standard input is more than 64 bytes; nothing done$/);
  });

  it('an input that never ends is given up after the wait, with its own message', async () => {
    const started = Date.now();
    await expect(readHookInput(sent(['{"a":1}'], false), MAX_HOOK_INPUT, 200)).rejects.toThrow(/^the hook input on standard input did not end within 0.2 s; nothing done$/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('nothing, not JSON, or not an object: one message each', async () => {
    await expect(readHookInput(sent([]))).rejects.toThrow(/^no hook input on standard input/);
    await expect(readHookInput(sent(['{"a":']))).rejects.toThrow(/^the hook input on standard input is not JSON$/);
    await expect(readHookInput(sent(['"text"']))).rejects.toThrow(/^the hook input on standard input is not a JSON object$/);
  });
});
