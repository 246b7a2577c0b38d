// Rewrites a generated pi transcript as a Codex CLI rollout (see reference/other-agents.md §3), so
// the third format is benchmarked on the same conversation, in the lines real rollouts have: each
// prompt as a `turn_context`, the user `response_item` and its `user_message` event copy; each
// model response as a `turn_context`, `reasoning` (summary and an encrypted blob) with its
// `agent_reasoning` copy, its text as an assistant message with an `agent_message` copy, its calls
// as `function_call` items (string arguments) and two `token_count` events after it, as Codex
// writes them per request; each result as a `function_call_output`. A pi compaction becomes a
// `compacted` record, and a pi branch (the user going back one turn) a `thread_rolled_back` event.
// Its lines come out a little shorter than real ones (median ~410 bytes against ~550 over
// shared/corpus/codex, where outputs and paths are longer): more lines per byte, so the row errs
// on the hard side.
//
//   node bench/to-codex.mjs <pi.jsonl> <out.jsonl>

import fs from 'node:fs';
import readline from 'node:readline';
import { ensureConverted, jsonlWriter, runAsScript } from './converted.mjs';

const CWD = '/workspace/bench';
/** Codex lines of a real-shaped conversation take about this much more room than pi's. */
export const CODEX_GROWTH = 1.63;
const RATE_LIMITS = { primary: { used_percent: 37.0, window_minutes: 300, resets_at: 1762490040 }, secondary: { used_percent: 23.0, window_minutes: 10080, resets_at: 1763016577 } };

/** A deterministic stand-in for the encrypted reasoning Codex stores: base64 of about `bytes`. */
function blob(seed, bytes) {
  const unit = Buffer.from(`${seed}:reasoning-state:`).toString('base64');
  return `gAAAAAB${unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes)}`;
}

function textOf(content) {
  if (typeof content === 'string') return content;
  return content.map((block) => block.text ?? '').join('\n');
}

export async function toCodex(source, target) {
  const out = jsonlWriter(target);
  let time = Date.UTC(2026, 0, 5, 8);
  let tokens = 0;
  const write = (type, payload, at = time) => out.write({ timestamp: new Date(at).toISOString(), type, payload });
  const turnContext = () => write('turn_context', { cwd: CWD, approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write', network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false }, model: 'gpt-5-codex', summary: 'auto' });
  for await (const text of readline.createInterface({ input: fs.createReadStream(source, { highWaterMark: 4 << 20 }), crlfDelay: Infinity })) {
    const entry = JSON.parse(text);
    if (entry.timestamp !== undefined) time = Math.max(time, Date.parse(entry.timestamp) || time);
    if (entry.type === 'session') {
      await write('session_meta', { id: entry.id, timestamp: new Date(time).toISOString(), cwd: CWD, originator: 'codex_cli_rs', cli_version: '0.63.0', instructions: null, source: 'cli', model_provider: 'openai', git: { commit_hash: '4c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d', branch: 'main' } });
      continue;
    }
    if (entry.type === 'compaction') {
      await write('compacted', { message: entry.summary });
      await write('event_msg', { type: 'context_compacted' });
      continue;
    }
    if (entry.type === 'branch_summary') {
      await write('event_msg', { type: 'thread_rolled_back', num_turns: 1 });
      continue;
    }
    if (entry.type !== 'message') continue;
    const { message } = entry;
    if (message.role === 'user') {
      const prompt = textOf(message.content);
      await turnContext();
      await write('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] });
      await write('event_msg', { type: 'user_message', message: prompt, images: [] });
    } else if (message.role === 'toolResult') {
      const body = textOf(message.content);
      const image = message.content.find((block) => block.type === 'image');
      const output = image === undefined
        ? JSON.stringify({ output: body, metadata: { exit_code: message.isError ? 1 : 0, duration_seconds: 0.1 } })
        : [{ type: 'input_text', text: body }, { type: 'input_image', image_url: `data:${image.mimeType};base64,${image.data}` }];
      await write('response_item', { type: 'function_call_output', call_id: message.toolCallId, output });
    } else if (message.role === 'assistant') {
      // Codex records the context of every request, and reasoning ahead of every response.
      await turnContext();
      const thinking = message.content.find((block) => block.type === 'thinking')?.thinking ?? '';
      const summary = `**${(thinking.split('\n')[0] || 'Planning the next step').slice(0, 120)}**`;
      await write('event_msg', { type: 'agent_reasoning', text: summary });
      await write('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: summary }], content: null, encrypted_content: blob(entry.id, 900 + thinking.length) });
      for (const block of message.content) {
        if (block.type === 'toolCall') {
          await write('response_item', { type: 'function_call', name: block.name, arguments: JSON.stringify(block.arguments ?? {}), call_id: block.id });
        } else if (block.type === 'text') {
          await write('event_msg', { type: 'agent_message', message: block.text });
          await write('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: block.text }] });
        }
      }
      const usage = message.usage ?? {};
      // OpenAI's input_tokens count the cached ones too (cached_input_tokens is part of them).
      const input = (usage.input ?? 0) + (usage.cacheRead ?? 0);
      const last = { input_tokens: input, cached_input_tokens: usage.cacheRead ?? 0, output_tokens: usage.output ?? 0, reasoning_output_tokens: 0, total_tokens: input + (usage.output ?? 0) };
      // Two counts per response, as Codex writes them: the totals before it, then after it.
      for (const step of [0, last.total_tokens]) {
        tokens += step;
        const total = { ...last, input_tokens: tokens, total_tokens: tokens };
        await write('event_msg', { type: 'token_count', info: { total_token_usage: total, last_token_usage: last, model_context_window: 272000 }, rate_limits: RATE_LIMITS });
      }
    }
  }
  return out.close();
}

/** The Codex twin of a cached pi transcript, converted once and cached beside it. */
export function ensureCodex(piFile, { log = console.log } = {}) {
  return ensureConverted(piFile, 'codex', 'a Codex rollout', toCodex, log);
}

await runAsScript(import.meta.url, toCodex);
