// Rewrites a generated pi transcript as a Claude Code one (see reference/other-agents.md §1), so
// both formats are benchmarked on the same conversation: one line per content block, results as
// `tool_result` blocks in `user` lines, the pi tree kept as the uuid / parentUuid DAG.
//
//   node bench/to-claude-code.mjs <pi.jsonl> <out.jsonl> [--real]
//
// With `real` (for the real-shaped sessions), lines also carry what real Claude Code lines carry
// and that makes them longer than pi's (median ~1.1 KiB over shared/corpus/claude-code): Claude
// Code's own usage object and request id, the tool's output a second time as `toolUseResult`,
// and a `file-history-snapshot` line before each prompt. Without it the output stays as the
// big-line rows have always measured it.

import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { jsonlWriter } from './converted.mjs';

const ENVELOPE = { isSidechain: false, userType: 'external', cwd: '/workspace/bench', version: '2.1.19', gitBranch: 'main' };
const REAL_ENVELOPE = { ...ENVELOPE, entrypoint: 'cli' };

/** Claude Code's usage object, from pi's. */
function claudeUsage(usage) {
  const created = usage?.cacheWrite ?? 0;
  return {
    input_tokens: usage?.input ?? 0, cache_creation_input_tokens: created, cache_read_input_tokens: usage?.cacheRead ?? 0,
    output_tokens: usage?.output ?? 0, server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 }, service_tier: 'standard',
    cache_creation: { ephemeral_1h_input_tokens: created, ephemeral_5m_input_tokens: 0 },
  };
}

/** What Claude Code records of a tool's run beside the result block: the output again, shaped by tool. */
function toolUseResult(call, message, text) {
  const image = message.content.find((block) => block.type === 'image');
  if (image) return { type: 'image', file: { base64: image.data, type: image.mimeType, originalSize: Math.round((image.data.length * 3) / 4) } };
  const args = call?.arguments ?? {};
  switch (message.toolName) {
    case 'read': {
      const numLines = text.split('\n').length;
      return { type: 'text', file: { filePath: args.path, content: text, numLines, startLine: args.offset ?? 1, totalLines: numLines + (args.offset ?? 0) } };
    }
    case 'exec':
      return { stdout: text, stderr: '', interrupted: false, isImage: false };
    case 'edit':
      return { filePath: args.path, oldString: args.oldText, newString: args.newText, structuredPatch: [], userModified: false, replaceAll: false };
    case 'write':
      return { type: 'create', filePath: args.path, content: args.content, structuredPatch: [] };
    default:
      return text;
  }
}

export async function toClaudeCode(source, target, { real = false } = {}) {
  const out = jsonlWriter(target);
  const envelope = real ? REAL_ENVELOPE : ENVELOPE;
  const lastUuid = new Map(); // pi entry id → uuid of the last Claude Code line written for it
  const calls = new Map(); // tool call id → { block, uuid }, for the result's toolUseResult (real only)
  const tracked = []; // files written or edited so far, for file-history-snapshot (real only)
  let sessionId = '00000000-0000-4000-8000-000000000000';
  let n = 0;
  let prompts = 0;
  const uuid = () => `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}`;
  const write = (value) => out.write(value);
  for await (const text of readline.createInterface({ input: fs.createReadStream(source, { highWaterMark: 4 << 20 }), crlfDelay: Infinity })) {
    const entry = JSON.parse(text);
    if (entry.type === 'session') {
      sessionId = entry.id;
      if (real) await write({ type: 'permission-mode', permissionMode: 'default', sessionId });
    }
    if (entry.type !== 'message') {
      // Bookkeeping entries have no Claude Code twin; their children hang off their parent.
      if (entry.id !== undefined) lastUuid.set(entry.id, lastUuid.get(entry.parentId) ?? null);
      continue;
    }
    const { message } = entry;
    const timestamp = new Date(message.timestamp ?? Date.now()).toISOString();
    let parent = lastUuid.get(entry.parentId) ?? null;
    const line = async (type, body, extra = {}) => {
      const id = uuid();
      const value = { parentUuid: parent, ...envelope, sessionId, type, message: body, ...extra, uuid: id, timestamp };
      parent = id;
      await write(value);
      return id;
    };
    if (message.role === 'user') {
      if (real) {
        const messageId = `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`; // the uuid the prompt line gets next
        const trackedFileBackups = Object.fromEntries(tracked.map((file, i) => [file, { backupFileName: `${entry.id}${i.toString(16).padStart(8, '0')}@v${i + 1}`, version: i + 1, backupTime: timestamp }]));
        await write({ type: 'file-history-snapshot', messageId, snapshot: { messageId, trackedFileBackups, timestamp }, isSnapshotUpdate: false });
      }
      const id = await line('user', { role: 'user', content: message.content }, real ? { promptId: `${entry.id}-0000-4000-8000-${prompts.toString(16).padStart(12, '0')}` } : {});
      prompts++;
      if (real && prompts % 8 === 0) {
        await write({ type: 'last-prompt', lastPrompt: typeof message.content === 'string' ? message.content.slice(0, 200) : '', leafUuid: id, sessionId });
        await write({ type: 'ai-title', aiTitle: 'Refactor the parser', sessionId });
      }
    } else if (message.role === 'toolResult') {
      const content = message.content.map((block) => (block.type === 'text' ? { type: 'text', text: block.text } : { type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } }));
      const result = { role: 'user', content: [{ tool_use_id: message.toolCallId, type: 'tool_result', content, is_error: message.isError }] };
      if (real) {
        const call = calls.get(message.toolCallId);
        calls.delete(message.toolCallId);
        const output = message.content.map((block) => block.text ?? '').join('');
        await line('user', result, { toolUseResult: toolUseResult(call?.block, message, output), sourceToolAssistantUUID: call?.uuid ?? null });
      } else {
        await line('user', result);
      }
    } else if (message.role === 'assistant') {
      const id = `msg_${entry.id}`;
      const stop = message.stopReason === 'toolUse' ? 'tool_use' : message.stopReason === 'stop' ? 'end_turn' : null;
      for (const block of message.content) {
        const converted =
          block.type === 'thinking' ? { type: 'thinking', thinking: block.thinking, signature: block.thinkingSignature ?? 'c2lnbmF0dXJl' }
          : block.type === 'toolCall' ? { type: 'tool_use', id: block.id, name: block.name, input: block.arguments }
          : { type: 'text', text: block.text };
        if (!real) {
          await line('assistant', { model: message.model, id, type: 'message', role: 'assistant', content: [converted], stop_reason: stop, usage: message.usage });
          continue;
        }
        const body = { model: message.model, id, type: 'message', role: 'assistant', content: [converted], stop_reason: stop, stop_sequence: null, usage: claudeUsage(message.usage) };
        const lineId = await line('assistant', body, { requestId: `req_011C${entry.id}${entry.id.split('').reverse().join('')}` });
        if (block.type === 'toolCall') {
          calls.set(block.id, { block, uuid: lineId });
          const file = block.arguments?.path;
          if ((block.name === 'edit' || block.name === 'write') && typeof file === 'string' && !tracked.includes(file)) {
            tracked.push(file);
            if (tracked.length > 6) tracked.shift(); // a session backs up the files it touches lately
          }
        }
      }
    }
    lastUuid.set(entry.id, parent);
  }
  return out.close();
}

/** The Claude Code twin of a cached pi transcript, converted once and cached beside it. */
export async function ensureClaudeCode(piFile, { real = false, log = console.log } = {}) {
  const target = piFile.replace(/\.jsonl$/, '.claude-code.jsonl');
  const marker = `${target}.complete`;
  if (fs.existsSync(marker)) return { file: target, ...JSON.parse(fs.readFileSync(marker, 'utf8')) };
  log(`converting ${path.basename(piFile)} to Claude Code lines ...`);
  const tmp = `${target}.tmp-${process.pid}`;
  const meta = await toClaudeCode(piFile, tmp, { real });
  fs.renameSync(tmp, target);
  fs.writeFileSync(marker, JSON.stringify(meta));
  return { file: target, ...meta };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const real = args.includes('--real');
  const [source, target] = args.filter((arg) => arg !== '--real');
  if (!source || !target) {
    console.error('usage: node bench/to-claude-code.mjs <pi.jsonl> <out.jsonl> [--real]');
    process.exit(2);
  }
  console.log(JSON.stringify(await toClaudeCode(source, target, { real })));
}
