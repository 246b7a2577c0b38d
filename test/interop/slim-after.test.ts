/**
 * Oversized sessions after `slim`, as the clients' own loaders build them: pi's context, with its
 * own pre-prompt compaction check (the usage the file records decides it), under the target (80%
 * of the model's window, counted by our estimator), every prompt kept, every call answered. The
 * real binaries' requests are scripts/slim-resume.mjs's (docs/reliability.md).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateContextTokens, DEFAULT_COMPACTION_SETTINGS, getLatestCompactionEntry, shouldCompact, type SessionEntry } from '@mariozechner/pi-coding-agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOversizedSessions, type ManifestEntry } from '../../scripts/oversized-sessions.mjs';
import { requestTokens } from '../../scripts/resume/request-tokens.mjs';
import { slim } from '../../src/api/slim.js';
import { loadPiSession, piContextCheck } from './pi-context.js';

const target = (window: number) => Math.floor(window * 0.8);

let dir: string;
let manifest: Partial<Record<'pi', ManifestEntry>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-slim-after-'));
  manifest = await writeOversizedSessions(dir, { agents: ['pi'] });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What `slim` writes for a session at the test's target, as text, and the strategies it used. */
async function slimmedWith(entry: ManifestEntry): Promise<{ text: string; strategies: string[] }> {
  const output = `${entry.file}.slim.jsonl`;
  const report = await slim(entry.file, { output, target: { tokens: target(entry.window) } });
  const slimReport = (report.files[0] as { slim?: { strategies: Array<{ strategy: string }> } }).slim;
  return { text: await readFile(output, 'utf8'), strategies: slimReport?.strategies.map((result) => result.strategy) ?? [] };
}

async function slimmed(entry: ManifestEntry): Promise<string> {
  return (await slimmedWith(entry)).text;
}

/**
 * Whether pi compacts before it sends the next prompt (`AgentSession#prompt` → `_checkCompaction`):
 * the last assistant's recorded usage against the window less the reserve, unless a compaction
 * on the branch is newer than that assistant.
 */
async function piWouldCompact(text: string, window: number): Promise<boolean> {
  const loaded = await loadPiSession(text);
  const byId = new Map(loaded.entries.map((entry) => [entry.id, entry]));
  const branch: SessionEntry[] = [];
  for (let at = loaded.leafId === null ? undefined : byId.get(loaded.leafId); at !== undefined; at = at.parentId === null ? undefined : byId.get(at.parentId)) branch.unshift(at);
  const last = loaded.context.messages.filter((message) => message.role === 'assistant').at(-1);
  if (last === undefined || last.role !== 'assistant') return false;
  const compaction = getLatestCompactionEntry(branch);
  if (compaction !== null && last.timestamp <= new Date(compaction.timestamp).getTime()) return false;
  return shouldCompact(calculateContextTokens(last.usage), window, DEFAULT_COMPACTION_SETTINGS);
}

describe("after slim, the client's own loader builds a history under the target", () => {
  it('pi: under the target, every prompt kept, and its pre-prompt check would not compact', async () => {
    const entry = manifest.pi!;
    const before = await readFile(entry.file, 'utf8');
    expect(await piWouldCompact(before, entry.window)).toBe(true);
    const text = await slimmed(entry);
    const loaded = await loadPiSession(text);
    expect(requestTokens(loaded.llmMessages).tokens).toBeLessThanOrEqual(target(entry.window));
    const sent = JSON.stringify(loaded.llmMessages);
    for (const prompt of entry.prompts) expect(sent).toContain(prompt);
    const pairs = await piContextCheck(text);
    expect(pairs.unansweredCalls).toEqual([]);
    expect(pairs.orphanResults).toEqual([]);
    expect(await piWouldCompact(text, entry.window)).toBe(false);
  });

  it("pi, trimmed only: every message of the file in pi's context after the summary, and the compaction entry is what keeps pi from compacting on the stale usage", async () => {
    const entry = manifest.pi!;
    const before = await loadPiSession(await readFile(entry.file, 'utf8'));
    const { text, strategies } = await slimmedWith(entry);
    expect(strategies).not.toContain('compaction');
    expect(strategies).toContain('old-results');
    const loaded = await loadPiSession(text);
    expect(loaded.context.messages[0]!.role).toBe('compactionSummary');
    expect(loaded.context.messages.slice(1).map((message) => message.role)).toEqual(before.context.messages.map((message) => message.role));
    const calls = (messages: typeof loaded.llmMessages) => messages.flatMap((message) => (message.role === 'assistant' ? message.content.filter((block) => block.type === 'toolCall').map((block) => block.id) : []));
    expect(calls(loaded.llmMessages)).toEqual(calls(before.llmMessages));
    expect(requestTokens(loaded.llmMessages).tokens).toBeLessThanOrEqual(target(entry.window));
    expect(await piWouldCompact(text, entry.window)).toBe(false);
    // The same trims without the entry: pi would read the last usage, which counted the history as it was.
    const lines = text.trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1)!).type).toBe('compaction');
    expect(await piWouldCompact(lines.slice(0, -1).join('\n') + '\n', entry.window)).toBe(true);
  });
});
