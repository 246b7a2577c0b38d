import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewriteInput } from '../../src/pipeline/rewrite.js';
import { slimRewrite } from '../../src/pipeline/slim-rewrite.js';
import { piSession, slimText } from './slim-session.js';

/** A pi session whose first tool result lost its line ending: it shares a line with the answer after it. */
function gluedSession(): { jsonl: string; glued: string[] } {
  const lines = piSession(6).jsonl().split('\n');
  const at = lines.findIndex((line) => line.includes('"toolResult"'));
  const glued = [lines[at]!, lines[at + 1]!];
  lines.splice(at, 2, glued.join(''));
  return { jsonl: lines.join('\n'), glued };
}

describe('slim on a session with glued records', () => {
  it('slims each record the loader split from a glued line, and puts each on its own line', async () => {
    const { jsonl, glued } = gluedSession();
    const { lines, report, output } = await slimText(jsonl, { target: { tokens: 150_000 } });
    expect(report.slim?.fits).toBe(true);
    expect(report.slim?.strategies.map((result) => result.strategy)).toContain('old-results');
    // The glued result was the oldest: it is trimmed, on a line of its own, and the answer glued to it is kept as it was.
    const first = lines.find((line) => line.message?.role === 'toolResult')!;
    expect(first.message.content[0].text).toMatch(/transcript-doctor slim cut [\d,]+ of [\d,]+ characters from this read result \(src\/file-0\.ts\)/);
    expect(output.split('\n')).toContain(glued[1]);
    expect(lines.filter((line) => line.message?.role === 'user')).toHaveLength(6);
    expect(report.findings).toEqual([]);
  });

  it('leaves a glued session that fits byte for byte', async () => {
    const lines = piSession(2, 20).jsonl().split('\n');
    lines.splice(1, 2, lines[1]! + lines[2]!);
    const jsonl = lines.join('\n');
    const folder = mkdtempSync(join(tmpdir(), 'td-slim-glued-'));
    writeFileSync(join(folder, 'session.jsonl'), jsonl);
    const rewrite = slimRewrite({});
    const report = await rewriteInput(join(folder, 'session.jsonl'), undefined, rewrite, { kind: 'file', path: join(folder, 'out.jsonl') });
    rewrite.finish!(report);
    expect(report.slim?.fits).toBe(true);
    expect(readFileSync(join(folder, 'out.jsonl'), 'utf8')).toBe(jsonl);
  });

  it('changes nothing on a second run at the same target', async () => {
    const first = await slimText(gluedSession().jsonl, { target: { tokens: 150_000 } });
    const second = await slimText(first.output, { target: { tokens: 150_000 } });
    expect(second.output).toBe(first.output);
  });
});
