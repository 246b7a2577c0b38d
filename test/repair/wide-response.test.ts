import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeUnanswered } from '../../harden/lib/scaling-shapes.mjs';
import { repairRewrite, rewriteInput } from '../../src/pipeline/rewrite.js';
import type { RepairMode } from '../../src/repair/plan.js';
import { repairBytes } from '../helpers/repair-tester.js';
import { scanText } from '../helpers/scan-text.js';

// One response written over 3,000 lines: a discard repair drops 3,000 lines in a row, so a pass
// goes to a temp file as more than 1,024 empty pieces in one chunk, the kernel's limit per writev.

const N = 3000;

function parses(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** Repairs the file to another file (the atomic writer), as `repair --out` does. */
async function repairToFile(jsonl: string, mode: RepairMode): Promise<Buffer> {
  const folder = mkdtempSync(join(tmpdir(), 'td-wide-'));
  const source = join(folder, 'session.jsonl');
  const out = join(folder, 'out.jsonl');
  writeFileSync(source, jsonl);
  await rewriteInput(source, undefined, repairRewrite(mode), { kind: 'file', path: out });
  return readFileSync(out);
}

describe.each(['discard', 'synthetic'] as const)('one wide response (%s)', (mode) => {
  it(`E20 — Claude Code repair of one response written over 3,000 lines, each with an unanswered call, succeeds (${mode}), scans clean and is settled`, async () => {
    const jsonl = claudeUnanswered(N);
    const { output, report } = await repairBytes(jsonl, mode);
    expect(report.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    const text = output.toString('utf8');
    const lines = text.split('\n').filter((line) => line !== '');
    // Every line whole: a short write left a line cut off, or bytes of nothing, in the next pass.
    expect(lines.filter((line) => !parses(line))).toEqual([]);
    expect(lines.length).toBe(mode === 'discard' ? 3 : 2 + 2 * N + 1);
    expect((await scanText(text)).filter((finding) => finding.severity === 'error')).toEqual([]);
    const again = await repairBytes(output, mode);
    expect(again.output.equals(output)).toBe(true);
    expect((await repairToFile(jsonl, mode)).equals(output)).toBe(true);
  });
});
