// Rewrites a generated pi transcript as a Claude Code one (see reference/other-agents.md §1), so
// both formats are benchmarked on the same conversation: one line per content block, results as
// `tool_result` blocks in `user` lines, the pi tree kept as the uuid / parentUuid DAG.
//
//   node bench/to-claude-code.mjs <pi.jsonl> <out.jsonl>

import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const ENVELOPE = { isSidechain: false, userType: 'external', cwd: '/workspace/bench', version: '2.1.19', gitBranch: 'main' };

export async function toClaudeCode(source, target) {
  const out = fs.createWriteStream(target, { highWaterMark: 16 << 20 });
  const lastUuid = new Map(); // pi entry id → uuid of the last Claude Code line written for it
  let sessionId = '00000000-0000-4000-8000-000000000000';
  let n = 0;
  let lines = 0;
  let buffer = '';
  const uuid = () => `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}`;
  const write = async (value) => {
    buffer += JSON.stringify(value) + '\n';
    lines++;
    if (buffer.length > 4 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  };
  for await (const text of readline.createInterface({ input: fs.createReadStream(source, { highWaterMark: 4 << 20 }), crlfDelay: Infinity })) {
    const entry = JSON.parse(text);
    if (entry.type === 'session') sessionId = entry.id;
    if (entry.type !== 'message') {
      // Bookkeeping entries have no Claude Code twin; their children hang off their parent.
      if (entry.id !== undefined) lastUuid.set(entry.id, lastUuid.get(entry.parentId) ?? null);
      continue;
    }
    const { message } = entry;
    const timestamp = new Date(message.timestamp ?? Date.now()).toISOString();
    let parent = lastUuid.get(entry.parentId) ?? null;
    const line = (type, body) => {
      const id = uuid();
      const value = { parentUuid: parent, ...ENVELOPE, sessionId, type, message: body, uuid: id, timestamp };
      parent = id;
      return write(value);
    };
    if (message.role === 'user') {
      await line('user', { role: 'user', content: message.content });
    } else if (message.role === 'toolResult') {
      const content = message.content.map((block) => (block.type === 'text' ? { type: 'text', text: block.text } : { type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } }));
      await line('user', { role: 'user', content: [{ tool_use_id: message.toolCallId, type: 'tool_result', content, is_error: message.isError }] });
    } else if (message.role === 'assistant') {
      const id = `msg_${entry.id}`;
      const stop = message.stopReason === 'toolUse' ? 'tool_use' : message.stopReason === 'stop' ? 'end_turn' : null;
      for (const block of message.content) {
        const converted =
          block.type === 'thinking' ? { type: 'thinking', thinking: block.thinking, signature: block.thinkingSignature ?? 'c2lnbmF0dXJl' }
          : block.type === 'toolCall' ? { type: 'tool_use', id: block.id, name: block.name, input: block.arguments }
          : { type: 'text', text: block.text };
        await line('assistant', { model: message.model, id, type: 'message', role: 'assistant', content: [converted], stop_reason: stop, usage: message.usage });
      }
    }
    lastUuid.set(entry.id, parent);
  }
  out.end(buffer);
  await once(out, 'finish');
  return { lines, bytes: fs.statSync(target).size };
}

/** The Claude Code twin of a cached pi transcript, converted once and cached beside it. */
export async function ensureClaudeCode(piFile, log = console.log) {
  const target = piFile.replace(/\.jsonl$/, '.claude-code.jsonl');
  const marker = `${target}.complete`;
  if (fs.existsSync(marker)) return { file: target, ...JSON.parse(fs.readFileSync(marker, 'utf8')) };
  log(`converting ${path.basename(piFile)} to Claude Code lines ...`);
  const tmp = `${target}.tmp-${process.pid}`;
  const meta = await toClaudeCode(piFile, tmp);
  fs.renameSync(tmp, target);
  fs.writeFileSync(marker, JSON.stringify(meta));
  return { file: target, ...meta };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [source, target] = process.argv.slice(2);
  if (!source || !target) {
    console.error('usage: node bench/to-claude-code.mjs <pi.jsonl> <out.jsonl>');
    process.exit(2);
  }
  console.log(JSON.stringify(await toClaudeCode(source, target)));
}
