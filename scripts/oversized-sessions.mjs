#!/usr/bin/env node
// Writes sessions too big to resume, one per agent, for the clients to judge `slim` by
// (scripts/slim-resume.mjs, test/interop/slim-loaders.test.ts). Each is one deterministic pi
// conversation, written in each agent's format by the bench converters (bench/to-*.mjs): prompts,
// each answered by a read or a bash call with a large code-like output, a PNG screenshot in some
// results (one of them over Anthropic's 5 MB base64 limit, one over 8000 px) and pasted with two
// prompts (one over 5 MB; where the format carries images: Claude Code and pi), a text answer, and
// the usage each response recorded growing with the history, as a real session's does. The
// conversation grows until its text reaches `tokens` (at 3 bytes a token, which code-heavy text
// stays near), so it is over the window of the model named.
//
//   node scripts/oversized-sessions.mjs <dir> [--agents claude,codex,gemini,qwen,copilot,pi] [--scale 1.3] [--no-images]
//
// Writes <dir>/<agent>/… in the path shape each client keeps (the harness places them), and
// <dir>/manifest.json: per agent its file, model, window, and the conversation's prompts, call ids
// and images, which the request a client sends after `slim` must still hold (images: unless slim
// stubbed them).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deflateSync, crc32 } from 'node:zlib';
import { toClaudeCode } from '../bench/to-claude-code.mjs';
import { toCodex } from '../bench/to-codex.mjs';
import { toCopilot } from '../bench/to-copilot.mjs';
import { toGemini } from '../bench/to-gemini.mjs';
import { toQwenCode } from '../bench/to-qwen-code.mjs';

/**
 * Each agent: the model its session names (the converters write these), that model's context
 * window (the provider's documented figure), and whether the converter carries images.
 */
export const AGENTS = {
  claude: { model: 'claude-sonnet-4-5-20250929', window: 200_000, images: true },
  // Codex cuts a tool output to about 10 KB when it builds the request: smaller ones reach the server whole.
  codex: { model: 'gpt-5-codex', window: 272_000, images: true, resultBytes: 8_000 },
  gemini: { model: 'gemini-2.5-pro', window: 1_048_576, images: false },
  qwen: { model: 'qwen3-coder-plus', window: 131_072, images: false },
  copilot: { model: 'claude-sonnet-4.5', window: 128_000, images: false },
  pi: { model: 'claude-sonnet-4-5-20250929', window: 200_000, images: true },
};

const BYTES_PER_TOKEN = 3;
const CWD = '/workspace/project';

/** A small deterministic generator (xorshift32), so every run writes the same bytes. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

function chunk(type, body) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
  return Buffer.concat([head, body, crc]);
}

/**
 * An RGB PNG of noise (`stored` deflate, so its size is its pixels': a noise screenshot the
 * provider cannot shrink), as base64.
 */
export function noisePng(width, height, seed = 1) {
  const next = rng(seed);
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let i = 0; i < raw.length; i++) raw[i] = i % stride === 0 ? 0 : next() & 0xff;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 0 })), chunk('IEND', Buffer.alloc(0))]);
  return png.toString('base64');
}

/** A file's text, code-like and different for each turn: what a read or a build log returns. */
export function codeText(turn, bytes) {
  const lines = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const line = `export function step${turn}_${i}(input: Record<string, number>, limit = ${(turn * 31 + i) % 997}): number { return Object.values(input).filter((v) => v < limit).reduce((a, b) => a + b * ${i}, ${turn}); }`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/**
 * The pi transcript of one oversized conversation: `{ lines, prompts, calls, images }`. `tokens`
 * is the size its text must reach; `images` puts a screenshot in every eighth result, the first
 * over 5 MB of base64, the second over 8000 px wide.
 */
export function oversizedConversation({ tokens, model, images = true, resultBytes = 40_000, seed = 7 }) {
  const id = `5e551011-0000-4000-8000-${String(seed).padStart(12, '0')}`;
  let time = Date.UTC(2026, 0, 5, 8);
  const stamp = () => new Date((time += 7_000)).toISOString();
  const lines = [{ type: 'session', version: 3, id, timestamp: stamp(), cwd: CWD }];
  let parent = null;
  let n = 0;
  const entry = (message) => {
    const entryId = `e${(n++).toString(16).padStart(7, '0')}`;
    lines.push({ type: 'message', id: entryId, parentId: parent, timestamp: stamp(), message: { ...message, timestamp: Date.parse(lines.at(-1).timestamp) } });
    parent = entryId;
  };
  const prompts = [];
  const calls = [];
  const shots = [];
  let context = 3_000;
  const usage = (output) => {
    const cacheRead = Math.round(context * 0.9);
    return { input: context - cacheRead, output, cacheRead, cacheWrite: 0, totalTokens: context + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  };
  const assistant = (content, stopReason) => {
    const output = 60;
    entry({ role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model, usage: usage(output), stopReason });
    context += output;
  };
  for (let turn = 1; context < tokens; turn++) {
    const prompt = `Turn ${turn}: look at src/module-${turn}.ts and tell me what step${turn}_1 adds up.`;
    prompts.push(prompt);
    const pasted = [];
    if (images && (turn === 4 || turn === 12)) {
      // A screenshot pasted with the prompt: the first over 5 MB of base64, the second small.
      const [width, height] = turn === 4 ? [1220, 1100] : [320, 200];
      const data = noisePng(width, height, 1_000 + turn);
      pasted.push({ type: 'image', data, mimeType: 'image/png' });
      shots.push({ turn, width, height, base64Length: data.length, inUserTurn: true });
      context += 1_600;
    }
    entry({ role: 'user', content: [{ type: 'text', text: prompt }, ...pasted] });
    context += Math.ceil(prompt.length / BYTES_PER_TOKEN);
    const callId = `toolu_01Slim${String(turn).padStart(6, '0')}Resume${seed}`;
    calls.push(callId);
    const read = turn % 2 === 1;
    const args = read ? { path: `${CWD}/src/module-${turn}.ts` } : { command: `npm run build -- --filter module-${turn}` };
    assistant([{ type: 'text', text: `Reading module ${turn} first.` }, { type: 'toolCall', id: callId, name: read ? 'read' : 'bash', arguments: args }], 'toolUse');
    const output = codeText(turn, resultBytes);
    const content = [{ type: 'text', text: output }];
    if (images && turn % 8 === 0) {
      const which = shots.length;
      const [width, height] = which === 0 ? [1220, 1100] : which === 1 ? [8200, 12] : [320, 200];
      const data = noisePng(width, height, turn);
      content.push({ type: 'image', data, mimeType: 'image/png' });
      shots.push({ turn, width, height, base64Length: data.length });
      context += 1_600;
    }
    entry({ role: 'toolResult', toolCallId: callId, toolName: read ? 'read' : 'bash', content, isError: false });
    context += Math.ceil(output.length / BYTES_PER_TOKEN);
    assistant([{ type: 'text', text: `step${turn}_1 adds the values under the limit, ${turn} to start with.` }], 'stop');
  }
  return { id, lines, prompts, calls, images: shots };
}

/** Where each agent's converter writes, in the path shape its client keeps. */
function agentFile(dir, agent, id) {
  switch (agent) {
    case 'claude':
      return join(dir, agent, `${id}.jsonl`);
    case 'codex':
      return join(dir, agent, `rollout-2026-01-05T08-00-00-${id}.jsonl`);
    case 'gemini':
      return join(dir, agent, `session-2026-01-05T08-00-${id.slice(0, 8)}.jsonl`);
    case 'copilot':
      return join(dir, agent, id, 'events.jsonl');
    case 'pi':
      return join(dir, agent, `2026-01-05T08-00-00-000Z_${id}.jsonl`);
    default:
      return join(dir, agent, `${id}.jsonl`);
  }
}

/** The converter passes a prompt's content through as pi holds it: its images become Claude's base64 blocks. */
function claudeUserImages(text) {
  return text
    .split('\n')
    .map((line) => {
      if (!line.includes('"mimeType"') || !line.includes('"type":"user"')) return line;
      const record = JSON.parse(line);
      if (!Array.isArray(record.message?.content) || record.message.content.some((block) => block.type === 'tool_result')) return line;
      record.message.content = record.message.content.map((block) => (block.type === 'image' && block.mimeType ? { type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } } : block));
      return JSON.stringify(record);
    })
    .join('\n');
}

const CONVERTERS = {
  claude: (source, target) => toClaudeCode(source, target, { real: true }),
  codex: toCodex,
  gemini: toGemini,
  qwen: toQwenCode,
  copilot: toCopilot,
};

/** Writes one oversized session per agent under `dir` and its manifest; returns the manifest. */
export async function writeOversizedSessions(dir, { agents = Object.keys(AGENTS), scale = 1.3, images = true } = {}) {
  const manifest = {};
  for (const [index, agent] of agents.entries()) {
    const spec = AGENTS[agent];
    if (spec === undefined) throw new Error(`unknown agent ${agent} (${Object.keys(AGENTS).join(', ')})`);
    const conversation = oversizedConversation({ tokens: Math.round(spec.window * scale), model: spec.model, images: images && spec.images, resultBytes: spec.resultBytes, seed: index + 1 });
    const file = agentFile(dir, agent, conversation.id);
    mkdirSync(join(file, '..'), { recursive: true });
    const pi = agent === 'pi' ? file : join(dir, `${agent}.pi.jsonl`);
    writeFileSync(pi, conversation.lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    if (agent !== 'pi') await CONVERTERS[agent](pi, file);
    if (agent === 'claude') writeFileSync(file, claudeUserImages(readFileSync(file, 'utf8')));
    manifest[agent] = { agent, file, id: conversation.id, model: spec.model, window: spec.window, prompts: conversation.prompts, calls: conversation.calls, images: conversation.images };
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
  return manifest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { agents: { type: 'string' }, scale: { type: 'string', default: '1.3' }, 'no-images': { type: 'boolean', default: false } } });
  if (positionals.length !== 1) {
    console.error('usage: node scripts/oversized-sessions.mjs <dir> [--agents claude,codex,gemini,qwen,copilot,pi] [--scale 1.3] [--no-images]');
    process.exit(2);
  }
  const manifest = await writeOversizedSessions(positionals[0], { agents: values.agents?.split(','), scale: Number(values.scale), images: !values['no-images'] });
  for (const [agent, m] of Object.entries(manifest)) console.log(JSON.stringify({ agent, file: m.file, prompts: m.prompts.length, images: m.images.length }));
}
