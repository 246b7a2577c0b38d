import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formats } from '../../src/formats/registry.js';
import { loadTranscriptFile } from '../../src/pipeline/load-file.js';
import { applyPlan } from '../../src/repair/apply.js';
import { planRepair } from '../../src/repair/planner.js';
import { call, Session } from '../helpers/session.js';

/** A session of 10 MiB with one orphan result, so the write spans several read chunks (of 1 MiB reading lines, 4 MiB copying). */
async function bigSession() {
  const session = new Session();
  for (let i = 0; i < 1000; i++) session.user(`question ${i} ${'x'.repeat(10_000)}`).reply('ok');
  session.calls(call('call_1')).result('call_1').result('call_gone').reply('done');
  const file = join(mkdtempSync(join(tmpdir(), 'td-apply-')), 'session.jsonl');
  writeFileSync(file, session.jsonl());
  const transcript = await loadTranscriptFile(file);
  const format = formats.find((candidate) => candidate.name === transcript.format)!;
  return { file, transcript, format, plan: planRepair(transcript, { mode: 'discard', sessionId: 's', file }) };
}

describe.each([true, false])('applyPlan writes (made from the entries: %s)', (byEntries) => {
  it('hands out the chunks in order, one write at a time', async () => {
    const { file, transcript, format, plan } = await bigSession();
    const chunks: Buffer[] = [];
    let inFlight = 0;
    let most = 0;
    let writes = 0;
    await applyPlan({ path: file, transcript, format }, plan, async (chunk) => {
      most = Math.max(most, ++inFlight);
      writes += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
      // Copied: a chunk is the writer's again once its write settles.
      for (const piece of Buffer.isBuffer(chunk) ? [chunk] : chunk) chunks.push(Buffer.from(piece));
      inFlight -= 1;
    }, true, byEntries);
    expect(writes).toBeGreaterThan(2);
    expect(most).toBe(1);
    const written = Buffer.concat(chunks).toString('utf8');
    expect(written).not.toContain('call_gone');
    expect(written.split('\n').filter((line) => line.includes('question 299 '))).toHaveLength(1);
  });

  it('stops at a write that fails part-way, and rejects with its error', async () => {
    const { file, transcript, format, plan } = await bigSession();
    let writes = 0;
    const failing = applyPlan({ path: file, transcript, format }, plan, async () => {
      writes += 1;
      if (writes === 2) throw new Error('no space left on device');
    }, true, byEntries);
    await expect(failing).rejects.toThrow('no space left on device');
    expect(writes).toBe(2);
  });
});
