// Rewrites a generated pi transcript as a GitHub Copilot CLI 1.0.102 session
// (`~/.copilot/session-state/<session>/events.jsonl`, see reference/more-agents.md §1.3), so the
// format is benchmarked on the same conversation, in the events the client appends: session.start;
// each prompt as a user.message; each response as assistant.turn_start, an assistant.message
// (calls in `toolRequests`), a session.usage_record, a tool.execution_start per call, the
// tool.execution_complete of each result, assistant.turn_end. Every event names the one before
// it (`parentId`). A pi compaction becomes session.compaction_start / _complete with its summary.
//
//   node bench/to-copilot.mjs <pi.jsonl> <out.jsonl>

import fs from 'node:fs';
import readline from 'node:readline';
import { createHash } from 'node:crypto';
import { ensureConverted, jsonlWriter, runAsScript } from './converted.mjs';

const MODEL = 'claude-sonnet-4.5';
/**
 * Copilot events of a real-shaped conversation take more room than pi's lines: each call is
 * written three times (request, start, completion) and every response has its turn markers and usage.
 */
export const COPILOT_GROWTH = 1.65;

function textOf(content) {
  if (typeof content === 'string') return content;
  return content.map((block) => block.text ?? '').join('\n');
}

function uuid(seed) {
  const hex = createHash('sha1').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function toCopilot(source, target) {
  const out = jsonlWriter(target);
  let time = Date.UTC(2026, 0, 5, 8);
  let previous = null;
  let turn = 0;
  const write = async (type, data) => {
    const id = uuid(`${out.lines}`);
    const event = { type, data, id, timestamp: new Date(time).toISOString(), parentId: previous };
    previous = id;
    await out.write(event);
  };
  /** The open turn's calls, answered as their results come. */
  let open = false;
  const endTurn = async () => {
    if (!open) return;
    await write('assistant.turn_end', { turnId: String(turn) });
    open = false;
  };
  for await (const text of readline.createInterface({ input: fs.createReadStream(source, { highWaterMark: 4 << 20 }), crlfDelay: Infinity })) {
    const entry = JSON.parse(text);
    if (entry.timestamp !== undefined) time = Math.max(time, Date.parse(entry.timestamp) || time);
    if (entry.type === 'session') {
      await write('session.start', { sessionId: entry.id, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.102', startTime: new Date(time).toISOString(), selectedModel: MODEL, context: { cwd: '/home/user/project' }, alreadyInUse: false, remoteSteerable: false });
      continue;
    }
    if (entry.type === 'compaction') {
      await endTurn();
      await write('session.compaction_start', { compactionAttemptId: entry.id });
      await write('session.compaction_complete', { success: true, compactionAttemptId: entry.id, preCompactionMessagesLength: 0, summaryContent: entry.summary });
      continue;
    }
    if (entry.type !== 'message') continue;
    const { message } = entry;
    if (message.role === 'toolResult') {
      await write('tool.execution_complete', { toolCallId: message.toolCallId, model: MODEL, interactionId: 'i', turnId: String(turn), success: message.isError !== true, result: { content: textOf(message.content), detailedContent: textOf(message.content) } });
      continue;
    }
    if (message.role === 'user') {
      await endTurn();
      turn = 0;
      await write('user.message', { content: textOf(message.content), transformedContent: textOf(message.content), messageId: entry.id, interactionId: 'i' });
    } else if (message.role === 'assistant') {
      await endTurn();
      turn++;
      open = true;
      const usage = message.usage ?? {};
      const calls = message.content.filter((block) => block.type === 'toolCall');
      await write('assistant.turn_start', { turnId: String(turn), interactionId: 'i' });
      await write('session.usage_record', { usage: { model: MODEL, inputTokens: usage.input ?? 0, outputTokens: usage.output ?? 0, cacheReadTokens: usage.cacheRead ?? 0 } });
      await write('assistant.message', {
        messageId: entry.id,
        model: MODEL,
        content: message.content.filter((block) => block.type === 'text').map((block) => block.text).join('\n'),
        toolRequests: calls.map((block) => ({ toolCallId: block.id, name: block.name, arguments: block.arguments ?? {}, type: 'function' })),
        interactionId: 'i',
        turnId: String(turn),
      });
      for (const block of calls) await write('tool.execution_start', { toolCallId: block.id, toolName: block.name, arguments: block.arguments ?? {}, turnId: String(turn), model: MODEL });
    }
  }
  await endTurn();
  return out.close();
}

export function ensureCopilot(piFile, { log = console.log } = {}) {
  return ensureConverted(piFile, 'copilot', 'a Copilot CLI session', toCopilot, log);
}

await runAsScript(import.meta.url, toCopilot);
