// Rewrites a generated pi transcript as a Qwen Code session (reference/more-agents.md §1.2), so the
// format is benchmarked on the same conversation, in the records Qwen Code 0.24.4 writes (as in
// shared/corpus/qwen-code): the pi tree kept as the uuid / parentUuid chain (a pi branch is a
// rewind), an `attribution_snapshot` record before each prompt, a `ui_telemetry` api_response
// record before each model turn, the turn as an `assistant` record with Gemini parts (thinking as
// thought parts, calls as `functionCall`), each result as a `tool_result` record (its output again
// in `toolCallResult.resultDisplay`, as Qwen Code records it) and a pi compaction as a
// `chat_compression` record holding the compressed history.
//
//   node bench/to-qwen-code.mjs <pi.jsonl> <out.jsonl>

import fs from 'node:fs';
import readline from 'node:readline';
import { ensureConverted, jsonlWriter, runAsScript } from './converted.mjs';

const ENVELOPE = { cwd: '/workspace/bench', version: '0.24.4', gitBranch: 'main' };
/** Qwen Code records of a real-shaped conversation take about this much more room than pi's. */
export const QWEN_GROWTH = 1.5;

function textOf(content) {
  if (typeof content === 'string') return content;
  return content.map((block) => block.text ?? '').join('\n');
}

/** An assistant message's blocks as Gemini parts. */
function partsOf(content) {
  const parts = [];
  for (const block of content) {
    if (block.type === 'thinking') parts.push({ text: block.thinking ?? '', thought: true });
    else if (block.type === 'text') parts.push({ text: block.text });
    else if (block.type === 'toolCall') parts.push({ functionCall: { id: block.id, name: block.name, args: block.arguments ?? {} } });
  }
  return parts;
}

export async function toQwenCode(source, target) {
  const out = jsonlWriter(target);
  const lastUuid = new Map(); // pi entry id → uuid of the last record written for it
  let sessionId = '00000000-0000-4000-8000-000000000000';
  let n = 0;
  let prompts = 0;
  const uuid = () => `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}`;
  const write = (value) => out.write(value);
  /** Writes a record after `parent`; returns its uuid. */
  const record = async (parent, timestamp, type, provenance, fields) => {
    const id = uuid();
    await write({ uuid: id, parentUuid: parent, sessionId, timestamp, type, provenance, ...ENVELOPE, ...fields });
    return id;
  };
  for await (const text of readline.createInterface({ input: fs.createReadStream(source, { highWaterMark: 4 << 20 }), crlfDelay: Infinity })) {
    const entry = JSON.parse(text);
    if (entry.type === 'session') {
      sessionId = entry.id;
      continue;
    }
    let parent = entry.parentId == null ? null : (lastUuid.get(entry.parentId) ?? null);
    const at = entry.timestamp ?? new Date().toISOString();
    if (entry.type === 'compaction') {
      const history = [{ role: 'user', parts: [{ text: entry.summary ?? '' }] }, { role: 'model', parts: [{ text: 'Got it. Thanks for the additional context!' }] }];
      parent = await record(parent, at, 'system', 'system', { subtype: 'chat_compression', systemPayload: { info: { originalTokenCount: 120000, newTokenCount: 4000, compressionStatus: 1 }, compressedHistory: history } });
    } else if (entry.type === 'message') {
      const { message } = entry;
      if (message.role === 'user') {
        prompts++;
        parent = await record(parent, at, 'system', 'system', { subtype: 'attribution_snapshot', systemPayload: { snapshot: { type: 'attribution-snapshot', version: 1, surface: 'cli', fileStates: {}, promptCount: prompts, promptCountAtLastCommit: 0 } } });
        parent = await record(parent, at, 'user', 'real_user', { message: { role: 'user', parts: [{ text: textOf(message.content) }] } });
      } else if (message.role === 'assistant') {
        const usage = message.usage ?? {};
        // promptTokenCount counts the cached tokens too (cachedContentTokenCount is part of it).
        const input = (usage.input ?? 0) + (usage.cacheRead ?? 0);
        const output = usage.output ?? 0;
        parent = await record(parent, at, 'system', 'system', {
          subtype: 'ui_telemetry',
          systemPayload: { uiEvent: { 'event.name': 'qwen-code.api_response', 'event.timestamp': at, response_id: `chatcmpl-${n}`, model: 'qwen3-coder-plus', status_code: 200, duration_ms: 900, input_token_count: input, output_token_count: output, cached_content_token_count: usage.cacheRead ?? 0, thoughts_token_count: 0, total_token_count: input + output, prompt_id: `${sessionId}########${prompts}`, auth_type: 'openai' } },
        });
        parent = await record(parent, at, 'assistant', 'assistant_output', {
          model: 'qwen3-coder-plus',
          message: { role: 'model', parts: partsOf(message.content) },
          usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, thoughtsTokenCount: 0, totalTokenCount: input + output, cachedContentTokenCount: usage.cacheRead ?? 0 },
          contextWindowSize: 131072,
        });
      } else if (message.role === 'toolResult') {
        const body = textOf(message.content);
        parent = await record(parent, at, 'tool_result', 'tool_result', {
          message: { role: 'user', parts: [{ functionResponse: { id: message.toolCallId, name: message.toolName, response: message.isError ? { error: body } : { output: body } } }] },
          toolCallResult: { callId: message.toolCallId, status: message.isError ? 'error' : 'success', resultDisplay: body, executionStatus: message.isError ? 'error' : 'success' },
        });
      }
    }
    // Entries with no Qwen Code twin (model changes, labels, branch summaries): their children hang off their parent.
    lastUuid.set(entry.id, parent);
  }
  return out.close();
}

/** The Qwen Code twin of a cached pi transcript, converted once and cached beside it. */
export function ensureQwenCode(piFile, { log = console.log } = {}) {
  return ensureConverted(piFile, 'qwen-code', 'a Qwen Code session', toQwenCode, log);
}

await runAsScript(import.meta.url, toQwenCode);
