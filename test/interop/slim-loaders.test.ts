/**
 * Sessions too big to resume, as Gemini CLI's and Qwen Code's OWN loaders build them: the history
 * each client would send, counted by our estimator against the target (80% of the model's
 * window), with every prompt, every call answered, nothing for the client to mend. The sessions
 * are the conversation of scripts/oversized-sessions.mjs, written by the bench converters and,
 * for Gemini CLI, by the client's own ChatRecordingService.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS, oversizedConversation, writeOversizedSessions, type Conversation, type ManifestEntry } from '../../scripts/oversized-sessions.mjs';
import { requestTokens } from '../../scripts/resume/request-tokens.mjs';
import { geminiHistoryCheck } from './gemini-history.js';
import { call, recordWithClient, type Step } from './gemini-sessions.js';
import { qwenResume } from './qwen-session.js';

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
