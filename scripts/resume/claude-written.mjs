// An oversized session written by Claude Code itself: the real binary, run turn after turn
// (`claude -p`, then `claude -p --resume <id>`) against a local model on 127.0.0.1 that answers
// each prompt with a Read of a large file in the project (every fifth a screenshot, which the Read
// returns as an image) and each result with a short answer, so every line of the session is the
// client's own (its Read tool ran, its recorder wrote it). The model reports the usage the request
// would cost (by request-tokens.mjs: an image at 1,600 tokens, not its base64), as the real one
// would, and the client's auto-compaction is off while it writes, so the session grows until the
// client itself says "Prompt is too long" (its own check on the usage recorded), or past `tokens`.
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { codeText, noisePng } from '../oversized-sessions.mjs';
import { placeClaude, runClient } from './client-homes.mjs';
import { onRequestBody } from './request-body.mjs';
import { requestTokens } from './request-tokens.mjs';

const MODEL = 'claude-sonnet-4-5-20250929';

function stream(res, blocks, stopReason, inputTokens) {
  const events = [['message_start', { type: 'message_start', message: { id: `msg_${randomUUID().replaceAll('-', '')}`, type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } } }]];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } }]);
    } else {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 40 } }], ['message_stop', { type: 'message_stop' }]);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join(''));
}

/** The local model: a prompt gets a Read, a result gets an answer, anything else (titles, checks) a word. */
function model(cwd, calls) {
  return createServer((req, res) => {
    onRequestBody(req, (raw, body) => {
      const tokens = body === undefined ? Math.ceil(raw.length / 3) : requestTokens(body).tokens;
      if (req.url.includes('count_tokens')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: tokens }));
      const last = body?.messages?.filter((m) => m.role === 'user').at(-1);
      const blocks = Array.isArray(last?.content) ? last.content : [{ type: 'text', text: String(last?.content ?? '') }];
      const turn = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('').match(/Turn (\d+): look at/)?.[1];
      const answered = blocks.some((b) => b.type === 'tool_result');
      if (body?.tools?.length > 0 && answered) return stream(res, [{ type: 'text', text: 'It adds the values under the limit.' }], 'end_turn', tokens);
      if (body?.tools?.length > 0 && turn !== undefined) {
        const id = `toolu_01ClaudeWritten${turn.padStart(5, '0')}`;
        calls.push(id);
        const file = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('').match(/look at src\/(\S+)/)[1];
        return stream(res, [{ type: 'text', text: `Reading module ${turn} first.` }, { type: 'tool_use', id, name: 'Read', input: { file_path: join(cwd, 'src', file) } }], 'tool_use', tokens);
      }
      stream(res, [{ type: 'text', text: 'ok' }], 'end_turn', tokens);
    });
  });
}

/**
 * Runs Claude Code (`binary`) for as many turns as it takes the session to hold `tokens`, and
 * copies the file it wrote to `dir`; gives its manifest entry (prompts, calls) or a reason.
 */
export async function writeWithClaude(dir, { binary, tokens, window, resultBytes = 40_000, timeoutMs = 120_000 }) {
  const root = join(dir, 'claude-writing');
  const id = randomUUID();
  const empty = join(root, 'empty.jsonl');
  mkdirSync(root, { recursive: true });
  writeFileSync(empty, '');
  const placed = placeClaude(empty, [], root);
  mkdirSync(join(placed.cwd, 'src'), { recursive: true });
  const calls = [];
  const prompts = [];
  let stoppedBy;
  const server = model(placed.cwd, calls);
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  try {
    for (let turn = 1; Math.ceil((turn - 1) * resultBytes / 3) < tokens; turn++) {
      // Every fifth file is a screenshot, which the client's Read returns as an image.
      const name = turn % 5 === 3 ? `module-${turn}.png` : `module-${turn}.ts`;
      writeFileSync(join(placed.cwd, 'src', name), name.endsWith('.png') ? Buffer.from(noisePng(1220, 1100, turn), 'base64') : codeText(turn, resultBytes));
      const prompt = `Turn ${turn}: look at src/${name} and tell me what step${turn}_1 adds up.`;
      prompts.push(prompt);
      const session = turn === 1 ? ['--session-id', id] : ['--resume', id];
      const env = { ...placed.env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.address().port}`, DISABLE_AUTO_COMPACT: '1', DISABLE_COMPACT: '1' };
      const run = await runClient(binary, ['-p', ...session, '--model', MODEL, '--allowedTools', 'Read', '--', prompt], { cwd: placed.cwd, env, timeoutMs });
      const said = (run.stderr || run.stdout).trim().split('\n')[0];
      // The client's own check on the usage the session recorded: the session is now too big to resume, as it says.
      if (run.code !== 0 && turn > 1 && /prompt is too long/i.test(said)) {
        stoppedBy = said;
        break;
      }
      if (run.code !== 0) return { missing: `Claude Code stopped writing at turn ${turn}: ${said}` };
    }
  } finally {
    server.close();
  }
  const projects = join(placed.home, '.claude', 'projects');
  const folder = join(projects, readdirSync(projects)[0]);
  const file = join(dir, 'claude-written', `${id}.jsonl`);
  mkdirSync(join(file, '..'), { recursive: true });
  copyFileSync(join(folder, `${id}.jsonl`), file);
  const text = readFileSync(file, 'utf8');
  // A prompt the client refused is in the file only when it recorded it.
  return { agent: 'claude', file, id, model: MODEL, window, prompts: prompts.filter((prompt) => text.includes(JSON.stringify(prompt))), calls, images: [], stoppedBy };
}
