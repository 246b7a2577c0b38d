import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyze } from '../../src/model/analysis.js';
import { EntryStore } from '../../src/model/entry-store.js';
import { loadTranscript } from '../../src/pipeline/load-transcript.js';
import { claudeUnanswered, codexUnanswered, geminiRewinds, geminiUnanswered, piForks, piUnanswered } from '../../harden/lib/scaling-shapes.mjs';
import { repairText } from '../helpers/repair-tester.js';
import { scanText } from '../helpers/scan-text.js';

// Shapes whose cost once grew with the square of the input (issue 49). Each test checks the
// findings, and a count of the work done (views and calls made, entries put on paths) or the CPU
// time at a size where the square of it is far beyond the bound: harden/scaling.mjs measures the
// growth itself at four sizes.

const analysed = async (jsonl: string) => analyze(await loadTranscript(Readable.from([Buffer.from(jsonl)])));

/** CPU seconds of this process while `work` runs (not wall time: other processes share the machine). */
async function cpuSeconds(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

/** Views of entries and call objects made while `work` runs. */
async function made(work: () => Promise<unknown>): Promise<{ views: number; calls: number }> {
  const views = vi.spyOn(EntryStore.prototype, 'at');
  const calls = vi.spyOn(EntryStore.prototype, 'call');
  await work();
  return { views: views.mock.calls.length, calls: calls.mock.calls.length };
}

afterEach(() => {
  vi.restoreAllMocks();
});

const N = 3000;

describe('cost linear in the input', () => {
  it('E20 — pi: one assistant turn with 3,000 unanswered calls is scanned and repaired with work linear in the calls', async () => {
    const jsonl = piUnanswered(N);
    let findings: Awaited<ReturnType<typeof scanText>> = [];
    const scan = await made(async () => (findings = await scanText(jsonl)));
    expect(findings.filter((finding) => finding.rule === 'missing-tool-result')).toHaveLength(N);
    expect(new Set(findings.map((finding) => finding.pointer)).size).toBe(findings.length);
    // Before: each call's object made every call of its message again (9 million at 3,000).
    expect(scan.calls).toBeLessThan(20 * N);
    let output: string[] = [];
    const repair = await made(async () => (output = (await repairText(jsonl)).lines.map((line) => JSON.stringify(line))));
    expect(output.some((line) => line.includes('"toolCall"'))).toBe(false);
    expect(repair.calls).toBeLessThan(20 * N);
  });

  it('E20 — Claude Code: one response written over 3,000 tool_use lines is scanned with views linear in the lines', async () => {
    const jsonl = claudeUnanswered(N);
    let findings: Awaited<ReturnType<typeof scanText>> = [];
    const scan = await made(async () => (findings = await scanText(jsonl)));
    expect(findings.filter((finding) => finding.rule === 'missing-tool-result')).toHaveLength(N);
    // Before: finding where the message ends walked its lines once per call, a view per step.
    expect(scan.views).toBeLessThan(50 * N);
  });

  it('E20 — Codex: 3,000 unanswered function calls in one turn are each found once', async () => {
    const jsonl = codexUnanswered(N);
    let findings: Awaited<ReturnType<typeof scanText>> = [];
    const scan = await made(async () => (findings = await scanText(jsonl)));
    expect(findings.filter((finding) => finding.rule === 'missing-tool-result')).toHaveLength(N);
    expect(scan.calls).toBeLessThan(20 * N);
  });

  it('E20 — Gemini CLI: a message of 20,000 executing calls is scanned in a few CPU seconds, each call found once', async () => {
    const n = 20_000;
    let findings: Awaited<ReturnType<typeof scanText>> = [];
    // Before: every problem copied the list of the problems before it (about 20 CPU seconds here).
    const seconds = await cpuSeconds(async () => (findings = await scanText(geminiUnanswered(n))));
    expect(findings.filter((finding) => finding.rule === 'kept-history-pairing')).toHaveLength(n);
    expect(seconds).toBeLessThan(8);
  });

  it('E21 — pi: an abandoned spine with a fork at every turn puts each entry on a path about once', async () => {
    const jsonl = piForks(N);
    const analysis = await analysed(jsonl);
    const onPaths = analysis.paths.reduce((sum, path) => sum + path.context.length, 0);
    // Before: every fork's path ran back to the root, 3,000 paths of up to 12,000 entries.
    expect(onPaths).toBeLessThan(4 * analysis.entries.length);
    const findings = await scanText(jsonl);
    expect(findings).toEqual([]);
  });

  it('E21 — pi: a fork that leaves a call unanswered is still found when it forks off an abandoned branch', async () => {
    const forks = piForks(200).trimEnd().split('\n');
    // A fork off the 100th turn's call: an alternative to its result.
    const call = forks.findIndex((line) => line.includes('"id":"a00000100"'));
    forks.splice(call + 2, 0, JSON.stringify({ type: 'message', id: 'retry', parentId: 'a00000100', message: { role: 'user', content: [{ type: 'text', text: 'stop' }] } }));
    const findings = await scanText(forks.join('\n') + '\n');
    expect(findings.map((finding) => [finding.rule, finding.line, finding.severity])).toEqual([['missing-tool-result', call + 1, 'warning']]);
  });

  it('E22 — Gemini CLI: 40,000 `$rewindTo` records each taking back one message are replayed in a few CPU seconds', async () => {
    const n = 40_000;
    let findings: Awaited<ReturnType<typeof scanText>> = [];
    // Before: each rewind copied every id of the list (about 25 CPU seconds here).
    const seconds = await cpuSeconds(async () => (findings = await scanText(geminiRewinds(n))));
    expect(findings).toEqual([]);
    expect(seconds).toBeLessThan(8);
  });
});
