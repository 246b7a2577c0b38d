/**
 * Sessions too big to resume, as Gemini CLI's and Qwen Code's OWN loaders build them: the history
 * each client would send, counted by our estimator against the target (80% of the model's
 * window), with every prompt, every call answered, nothing for the client to mend; then the same
 * sessions after `slim`, whose histories come under the target the same way. The sessions are the
 * conversation of scripts/oversized-sessions.mjs, written by the bench converters and, for Gemini
 * CLI, by the client's own ChatRecordingService.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS, oversizedConversation, writeOversizedSessions, type Conversation, type ManifestEntry } from '../../scripts/oversized-sessions.mjs';
import { requestTokens } from '../../scripts/resume/request-tokens.mjs';
import { geminiHistoryCheck } from './gemini-history.js';
import { call, recordWithClient, type Step } from './gemini-sessions.js';
import { qwenResume } from './qwen-session.js';
import { slim } from '../../src/api/slim.js';

const TARGET = 0.8;
const target = (window: number) => Math.floor(window * TARGET);

interface PiMessage {
  role: string;
  content: Array<{ type: string; text?: string; id?: string; name?: string }>;
  toolCallId?: string;
  usage?: { input: number; cacheRead: number; output: number };
}

/** The conversation as the steps Gemini CLI's chat records: each prompt, its call with the output, the answer, the usage reported. */
function geminiSteps(conversation: Conversation): Step[] {
  const steps: Step[] = [];
  const outputs = new Map<string, string>();
  const messages = conversation.lines.filter((line) => line.type === 'message').map((line) => line.message as PiMessage);
  for (const message of messages) if (message.role === 'toolResult') outputs.set(message.toolCallId!, message.content.map((block) => block.text ?? '').join(''));
  for (const message of messages) {
    if (message.role === 'user') steps.push({ prompt: message.content[0]!.text!, calls: [], recorded: true });
    if (message.role !== 'assistant') continue;
    const step = steps.at(-1)!;
    const usage = message.usage!;
    step.usage = { promptTokenCount: usage.input + usage.cacheRead, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.cacheRead + usage.output };
    for (const block of message.content) if (block.type === 'toolCall') step.calls!.push(call(block.id!, block.name!, outputs.get(block.id!)));
    if (message.content.every((block) => block.type === 'text')) step.answer = message.content.map((block) => block.text).join('');
  }
  return steps;
}

let dir: string;
let manifest: Partial<Record<'gemini' | 'qwen', ManifestEntry>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-slim-loaders-'));
  manifest = await writeOversizedSessions(dir, { agents: ['gemini', 'qwen'] });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Gemini CLI builds a history over the target from an oversized session', () => {
  it('written by the converter: over 80% of the window, every prompt sent, every call answered, nothing mended', async () => {
    const entry = manifest.gemini!;
    const check = await geminiHistoryCheck(await readFile(entry.file, 'utf8'), basename(entry.file));
    expect(requestTokens(check.contents).tokens).toBeGreaterThan(target(AGENTS.gemini.window));
    expect(check.prompts).toBe(entry.prompts.length);
    expect(check.unequal).toEqual([]);
    expect(check.refused).toEqual([]);
    expect(check.patched).toEqual([]);
  });

  it("written by the client's own recorder: over the target the same way", async () => {
    const conversation = oversizedConversation({ tokens: AGENTS.gemini.window * 1.3, model: AGENTS.gemini.model, images: false });
    const check = await geminiHistoryCheck(await recordWithClient(geminiSteps(conversation)));
    expect(requestTokens(check.contents).tokens).toBeGreaterThan(target(AGENTS.gemini.window));
    expect(check.prompts).toBe(conversation.prompts.length);
    expect(check.unequal).toEqual([]);
    expect(check.patched).toEqual([]);
  });
});

describe('Qwen Code builds a history over the target from an oversized session', () => {
  it('over 80% of the window, no gap, nothing injected or dropped, every prompt sent', async () => {
    const entry = manifest.qwen!;
    const resumed = await qwenResume(await readFile(entry.file, 'utf8'));
    expect(requestTokens(resumed.history).tokens).toBeGreaterThan(target(AGENTS.qwen.window));
    expect(resumed.gaps).toEqual([]);
    expect(resumed.injected).toEqual([]);
    expect(resumed.droppedDuplicates).toEqual([]);
    expect(resumed.userTexts).toEqual(entry.prompts);
  });
});

/** Gemini's request body limit (GC #13776): slim keeps under it too. */
const GEMINI_BODY = 1_048_576;

/** What `slim` writes for a session file at `tokens`, as text, with its report. */
async function slimmed(file: string, tokens: number): Promise<{ text: string; fits: boolean | undefined; strategies: string[] }> {
  const output = `${file}.slim-${tokens}.jsonl`;
  const report = await slim(file, { output, target: { tokens } });
  const slimReport = (report.files[0] as { slim?: { fits: boolean; strategies: Array<{ strategy: string }> } }).slim;
  return { text: await readFile(output, 'utf8'), fits: slimReport?.fits, strategies: slimReport?.strategies.map((result) => result.strategy) ?? [] };
}

describe("after slim, Gemini CLI's own loader builds a history under the target", () => {
  const expectUnder = async (text: string, tokens: number, prompts: readonly string[]) => {
    const check = await geminiHistoryCheck(text);
    expect(requestTokens(check.contents).tokens).toBeLessThanOrEqual(tokens);
    expect(Buffer.byteLength(JSON.stringify(check.contents))).toBeLessThanOrEqual(GEMINI_BODY);
    // Every prompt is sent: the latest ones as turns, the older ones word for word in the summary turn.
    const sent = JSON.stringify(check.contents);
    for (const prompt of prompts) expect(sent).toContain(JSON.stringify(prompt).slice(1, -1));
    expect(check.unequal).toEqual([]);
    expect(check.refused).toEqual([]);
    expect(check.patched).toEqual([]);
    return check;
  };

  for (const tokens of [target(AGENTS.gemini.window), 100_000]) {
    it(`written by the converter, slimmed at ${tokens.toLocaleString('en-US')} tokens: one summary turn, the latest turns kept, under the target and the body limit`, async () => {
      const entry = manifest.gemini!;
      const { text, fits, strategies } = await slimmed(entry.file, tokens);
      expect(fits).toBe(true);
      expect(strategies).toEqual(['compaction']);
      const check = await expectUnder(text, tokens, entry.prompts);
      expect(check.contents[0]!.parts![0]!.text).toMatch(/^This session was compacted by transcript-doctor/);
      // The latest prompt is a turn of its own, not only a line of the summary.
      expect(check.contents.some((content) => content.role === 'user' && content.parts?.some((part) => part.text === entry.prompts.at(-1)))).toBe(true);
    });
  }

  it("written by the client's own recorder (its history set by $set.messages), slimmed: under the target the same way", async () => {
    const conversation = oversizedConversation({ tokens: AGENTS.gemini.window * 1.3, model: AGENTS.gemini.model, images: false });
    const file = join(dir, 'client-written.jsonl');
    await writeFile(file, await recordWithClient(geminiSteps(conversation)));
    const tokens = 100_000;
    const { text, fits } = await slimmed(file, tokens);
    expect(fits).toBe(true);
    await expectUnder(text, tokens, conversation.prompts);
  });
});

describe("after slim, Qwen Code's own loader builds a history under the target", () => {
  it('one chat_compression record: under 80% of the window, no gap, nothing injected or dropped, every prompt sent', async () => {
    const entry = manifest.qwen!;
    const tokens = target(AGENTS.qwen.window);
    const { text, fits, strategies } = await slimmed(entry.file, tokens);
    expect(fits).toBe(true);
    expect(strategies).toContain('compaction');
    const resumed = await qwenResume(text);
    expect(requestTokens(resumed.history).tokens).toBeLessThanOrEqual(tokens);
    expect(resumed.gaps).toEqual([]);
    expect(resumed.injected).toEqual([]);
    expect(resumed.droppedDuplicates).toEqual([]);
    const sent = resumed.userTexts.join('\n');
    for (const prompt of entry.prompts) expect(sent).toContain(prompt);
  });
});
