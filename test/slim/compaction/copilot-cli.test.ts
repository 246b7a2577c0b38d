import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session, SESSION_ID } from '../../formats/copilot-cli/session.js';
import { CaptureServer, copilotBinary, resumeWithCopilot } from '../../interop/copilot-resume.js';
import { compact, pairingProblems } from './compact.js';

function session(turns: number): string {
  const s = new Session();
  for (let t = 0; t < turns; t++) {
    s.user(`request ${t}: clean the build`);
    s.turn('', [{ id: `call_a_${t}`, name: 'bash', output: `out a ${t}` }, { id: `call_b_${t}`, name: 'view', output: `out b ${t}` }]);
    s.turn(`answer ${t}`);
  }
  return s.text();
}

const rows = (text: string) => text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, any>);

describe('Copilot CLI compaction events', () => {
  let server: CaptureServer;
  beforeAll(async () => {
    server = await CaptureServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('puts the start before the first kept event and the completion with the summary at the end; the rest stays', async () => {
    const original = session(4);
    const { text, plan, before, after } = await compact(original, 10);
    const out = rows(text);
    expect(out[0]!.type).toBe('session.start');
    const start = out.findIndex((row) => row.type === 'session.compaction_start');
    expect(out[start + 1]).toMatchObject({ type: 'user.message', data: { content: 'request 2: clean the build' } });
    expect(out.at(-1)).toMatchObject({ type: 'session.compaction_complete', data: { success: true, summaryContent: plan.summary, preCompactionTokens: 123456 }, parentId: out.at(-2)!.id });
    expect(out[start]!.parentId).toBe(out[start - 1]!.id);
    const lines = text.trimEnd().split('\n');
    expect([...lines.slice(0, start), ...lines.slice(start + 1, -1)]).toEqual(original.trimEnd().split('\n'));
    expect(after.replay.context.at(0).kind).toBe('compaction');
    expect(after.replay.context.length).toBe(before.replay.context.length - plan.keepFrom + 1);
    expect(pairingProblems(after)).toEqual({});
  });

  it('the real client (offline) resumes with the summary and the kept turns, nothing to mend', async () => {
    const { text, plan } = await compact(session(4), 10);
    const resumed = await resumeWithCopilot(copilotBinary()!, server, mkdtempSync(join(tmpdir(), 'td-copilot-packages-')), 'compacted', SESSION_ID, text);
    expect(resumed.mends).toEqual([]);
    const messages = resumed.messages ?? [];
    const texts = messages.map((message) => JSON.stringify(message.content ?? ''));
    expect(texts.some((content) => content.includes('request 0: clean the build'))).toBe(true);
    expect(texts.some((content) => content.includes(JSON.stringify(plan.summary).slice(1, 60)))).toBe(true);
    expect(texts.filter((content) => content.includes('"request 2: clean the build"') || content === '"request 2: clean the build"')).toHaveLength(1);
    expect(texts.some((content) => content.includes('out a 1'))).toBe(false);
    expect(texts.some((content) => content.includes('out a 3'))).toBe(true);
  }, 120_000);
});
