// Rewrites a generated pi transcript as a Gemini CLI 0.61.0 session log
// (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, see reference/more-agents.md §1.1), so the
// format is benchmarked on the same conversation, in the records the client appends: a metadata
// line and its `<session_context>` set by `$set.messages`; each prompt as a user message and a
// `$set` of `lastUpdated`; each model response with calls as a `gemini` message written twice, as
// `recordToolCalls` writes it (first with its calls `executing`, again with their results, under
// the same id: the last copy wins), each text answer once, every append followed by its `$set`.
// A pi compaction becomes a `$set.messages` holding the summary (how `/compress` is stored).
//
//   node bench/to-gemini.mjs <pi.jsonl> <out.jsonl>

import fs from 'node:fs';
import readline from 'node:readline';
import { ensureConverted, jsonlWriter, runAsScript } from './converted.mjs';

const PROJECT_HASH = '9dad1e4e08b0b11cbcd860257e8bdfa6b8e5f01790e10a6a0b1f4870c13e686b';
/**
 * Gemini CLI records of a real-shaped conversation take about as much room as pi's: each call
 * message is written twice, but results carry no envelope of their own.
 */
export const GEMINI_GROWTH = 1.0;

function textOf(content) {
  if (typeof content === 'string') return content;
  return content.map((block) => block.text ?? '').join('\n');
}

export async function toGemini(source, target) {
  const out = jsonlWriter(target);
  let time = Date.UTC(2026, 0, 5, 8);
  const write = (record) => out.write(record);
  const stamp = () => new Date(time).toISOString();
  const touched = () => write({ $set: { lastUpdated: stamp() } });
  const context = () => ({ id: 'd04923d38bb0f6017037e74183378ef4', timestamp: stamp(), type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n</session_context>' }] });
  /** The model message whose calls wait for their results: written once they have all come. */
  let pending;
  const settle = async () => {
    if (pending === undefined) return;
    await write({ ...pending, toolCalls: pending.toolCalls.map(({ output, ...call }) => ({ ...call, result: [{ functionResponse: { id: call.id, name: call.name, response: { output: output ?? '' } } }], status: 'success' })) });
    await touched();
    pending = undefined;
  };
  for await (const text of readline.createInterface({ input: fs.createReadStream(source, { highWaterMark: 4 << 20 }), crlfDelay: Infinity })) {
    const entry = JSON.parse(text);
    if (entry.timestamp !== undefined) time = Math.max(time, Date.parse(entry.timestamp) || time);
    if (entry.type === 'session') {
      await write({ sessionId: entry.id, projectHash: PROJECT_HASH, startTime: stamp(), lastUpdated: stamp(), kind: 'main' });
      await write({ $set: { messages: [context()], lastUpdated: stamp() } });
      continue;
    }
    if (entry.type === 'compaction') {
      await settle();
      await write({ $set: { messages: [context(), { id: `${entry.id}-summary`, timestamp: stamp(), type: 'user', content: [{ text: entry.summary }] }] } });
      continue;
    }
    if (entry.type !== 'message') continue;
    const { message } = entry;
    if (message.role === 'toolResult') {
      const call = pending?.toolCalls.find((candidate) => candidate.id === message.toolCallId);
      if (call !== undefined) call.output = textOf(message.content);
      continue;
    }
    await settle();
    if (message.role === 'user') {
      await write({ id: entry.id, timestamp: stamp(), type: 'user', content: [{ text: textOf(message.content) }] });
      await touched();
    } else if (message.role === 'assistant') {
      const usage = message.usage ?? {};
      const thinking = message.content.find((block) => block.type === 'thinking')?.thinking;
      const record = {
        id: entry.id,
        timestamp: stamp(),
        type: 'gemini',
        content: message.content.filter((block) => block.type === 'text').map((block) => block.text).join('\n'),
        thoughts: thinking ? [{ subject: thinking.split('\n')[0].slice(0, 80), description: thinking, timestamp: stamp() }] : [],
        // Gemini CLI records promptTokenCount as `input`: the cached tokens are part of it.
        tokens: { input: (usage.input ?? 0) + (usage.cacheRead ?? 0), output: usage.output ?? 0, cached: usage.cacheRead ?? 0, thoughts: 0, tool: 0, total: (usage.input ?? 0) + (usage.cacheRead ?? 0) + (usage.output ?? 0) },
        model: 'gemini-2.5-pro',
      };
      const calls = message.content.filter((block) => block.type === 'toolCall');
      await write(record);
      await touched();
      if (calls.length === 0) continue;
      pending = { ...record, toolCalls: calls.map((block) => ({ id: block.id, name: block.name, args: block.arguments ?? {}, timestamp: stamp() })) };
      await write({ ...pending, toolCalls: pending.toolCalls.map((call) => ({ ...call, status: 'executing' })) });
      await touched();
    }
  }
  await settle();
  return out.close();
}

export function ensureGemini(piFile, { log = console.log } = {}) {
  return ensureConverted(piFile, 'gemini', 'a Gemini CLI session', toGemini, log);
}

await runAsScript(import.meta.url, toGemini);
