import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/model/analysis.js';
import { EntryStore } from '../../src/model/entry-store.js';
import { loadTranscript } from '../../src/pipeline/load-transcript.js';
import { claudeUnanswered, codexUnanswered, geminiRewinds, geminiUnanswered, piForks, piUnanswered } from '../../harden/lib/scaling-shapes.mjs';
import { repairText } from '../helpers/repair-tester.js';
import { scanText } from '../helpers/scan-text.js';

// Shapes whose cost once grew with the square of the input (issue 49). Each test checks the
// findings and a count of the work done (views and calls made, entries put on paths, iterator
// steps), never a time: harden/scaling.mjs measures the growth itself at four sizes.

const analysed = async (jsonl: string) => analyze(await loadTranscript(Readable.from([Buffer.from(jsonl)])));

/** Wraps `owner[name]` to count its calls while `work` runs (counted, not recorded: a spy keeps every call's arguments, millions of them on the code before). */
async function counted(owner: object, name: string, work: () => Promise<unknown>): Promise<number> {
  const target = owner as Record<string, (...args: unknown[]) => unknown>;
  const original = target[name]!;
  let count = 0;
  target[name] = function (this: unknown, ...args: unknown[]) {
    count++;
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    target[name] = original;
  }
  return count;
}

/**
 * Steps taken by every iterator of this kind (arrays' or maps') while `work` runs: a copy of a
 * list (`[...list]`) or a walk over a map is one step an element, so work that copies or walks the
 * whole list again at each element shows as the square of the input, whatever the machine's speed.
 */
function iteratorSteps(of: 'array' | 'map', work: () => Promise<unknown>): Promise<number> {
  return counted(Object.getPrototypeOf(of === 'array' ? [][Symbol.iterator]() : new Map().keys()) as object, 'next', work);
}

/** Views of entries and call objects made while `work` runs. */
async function made(work: () => Promise<unknown>): Promise<{ views: number; calls: number }> {
  let calls = 0;
  const views = await counted(EntryStore.prototype, 'at', async () => {
    calls = await counted(EntryStore.prototype, 'call', work);
  });
  return { views, calls };
}

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
    // Before: each call's turn was found again by walking the turn's items, a view per step (4.5 million at 3,000).
    expect(scan.views).toBeLessThan(50 * N);
  });

  it('E20 — Gemini CLI: a message of 3,000 executing calls is scanned with list work linear in the calls, each call found once', async () => {
    let findings: Awaited<ReturnType<typeof scanText>> = [];
    // Before: every problem copied the list of the problems before it (4.5 million steps at 3,000).
    const steps = await iteratorSteps('array', async () => (findings = await scanText(geminiUnanswered(N))));
    expect(findings.filter((finding) => finding.rule === 'kept-history-pairing')).toHaveLength(N);
    expect(steps).toBeLessThan(200 * N);
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

  it('E22 — Gemini CLI: 3,000 `$rewindTo` records each taking back one message are replayed with map work linear in the records', async () => {
    let findings: Awaited<ReturnType<typeof scanText>> = [];
    // Before: each rewind copied every id of the list (millions of steps at 3,000).
    const steps = await iteratorSteps('map', async () => (findings = await scanText(geminiRewinds(N))));
    expect(findings).toEqual([]);
    expect(steps).toBeLessThan(50 * N);
  });
});
