// A request / dataset file for the bench: `count` conversations, one per line, in the shapes the
// requests format reads. Most lines are OpenAI chat (fine-tuning datasets); a tenth each are
// Anthropic, Responses and Gemini requests (logged proxy traffic). A conversation has 1–12 user
// turns, each answered directly or after rounds of 1–3 tool calls, so a line holds from three
// messages to a few dozen (median ~12, ~3 KiB). About 1.5% of lines carry one pairing problem (an
// unanswered call, an orphan result, a result after the next user message), so repair has work.
// Deterministic per seed.
//
//   node bench/requests.mjs <count> <out.jsonl>

import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Rng } from './corpora.mjs';
import { DATA_DIR, ensureSpace, fmtBytes } from './generate.mjs';

/** Bump when the output changes, so cached files in bench/.data are rebuilt. */
const VERSION = 1;
const WORDS = ['the', 'file', 'test', 'build', 'error', 'config', 'value', 'function', 'returns', 'when', 'path', 'user', 'list', 'server', 'request', 'update', 'check', 'output', 'line', 'module'];
const TOOLS = ['read_file', 'list_dir', 'run_shell', 'search', 'write_file'];

/** Generates one conversation in a neutral form, then writes it in a shape. */
function conversation(rand, n) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const text = (mean) => {
    const words = Math.max(2, Math.round(mean * Math.exp((rand() - 0.5) * 1.6) / 6));
    return Array.from({ length: words }, () => pick(WORDS)).join(' ');
  };
  const turns = [];
  const userTurns = 1 + Math.min(11, Math.floor(-Math.log(1 - rand()) * 2.2));
  let call = 0;
  for (let t = 0; t < userTurns; t++) {
    const turn = { user: text(100), rounds: [], answer: text(200) };
    const rounds = rand() < 0.55 ? 1 + Math.floor(rand() * 3) : 0;
    for (let r = 0; r < rounds; r++) {
      const calls = Array.from({ length: rand() < 0.75 ? 1 : 2 + Math.floor(rand() * 2) }, () => ({ id: `call_${n.toString(36)}_${(call++).toString(36)}`, name: pick(TOOLS), args: { path: `src/${pick(WORDS)}.ts` }, output: text(260) }));
      turn.rounds.push({ say: rand() < 0.3 ? text(80) : null, calls });
    }
    turns.push(turn);
  }
  return turns;
}

/** One pairing problem, on a conversation with a tool call: what a broken dataset line holds. */
function breakOne(rand, turns) {
  const withCalls = turns.filter((turn) => turn.rounds.length > 0);
  if (withCalls.length === 0) return turns;
  const round = withCalls[Math.floor(rand() * withCalls.length)].rounds[0];
  const kind = rand();
  if (kind < 0.5) round.calls.at(-1).unanswered = true;
  else if (kind < 0.8) round.orphan = { id: `call_lost_${Math.floor(rand() * 1e6)}`, name: 'run_shell', output: 'stale output' };
  else round.late = true;
  return turns;
}

function chat(turns) {
  const messages = [{ role: 'system', content: 'You are a helpful coding assistant.' }];
  for (const turn of turns) {
    messages.push({ role: 'user', content: turn.user });
    for (const round of turn.rounds) {
      messages.push({ role: 'assistant', content: round.say, tool_calls: round.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) });
      const results = round.calls.filter((c) => !c.unanswered).map((c) => ({ role: 'tool', tool_call_id: c.id, content: c.output }));
      if (round.late) messages.push({ role: 'user', content: 'still there?' });
      messages.push(...results);
      if (round.orphan) messages.push({ role: 'tool', tool_call_id: round.orphan.id, content: round.orphan.output });
    }
    messages.push({ role: 'assistant', content: turn.answer });
  }
  return { messages };
}

function anthropic(turns) {
  const messages = [];
  for (const turn of turns) {
    messages.push({ role: 'user', content: turn.user });
    for (const round of turn.rounds) {
      const say = round.say ? [{ type: 'text', text: round.say }] : [];
      messages.push({ role: 'assistant', content: [...say, ...round.calls.map((c) => ({ type: 'tool_use', id: c.id.replace('call_', 'toolu_'), name: c.name, input: c.args }))] });
      const results = round.calls.filter((c) => !c.unanswered).map((c) => ({ type: 'tool_result', tool_use_id: c.id.replace('call_', 'toolu_'), content: c.output }));
      if (round.orphan) results.push({ type: 'tool_result', tool_use_id: round.orphan.id.replace('call_', 'toolu_'), content: round.orphan.output });
      if (round.late) messages.push({ role: 'user', content: 'still there?' });
      if (results.length > 0) messages.push({ role: 'user', content: results });
    }
    messages.push({ role: 'assistant', content: [{ type: 'text', text: turn.answer }] });
  }
  return { model: 'claude-sonnet-4-5', max_tokens: 4096, system: 'You are a helpful coding assistant.', messages };
}

function responses(turns) {
  const input = [{ role: 'developer', content: 'You are a helpful coding assistant.' }];
  for (const turn of turns) {
    input.push({ role: 'user', content: turn.user });
    for (const round of turn.rounds) {
      if (round.say) input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: round.say }] });
      for (const c of round.calls) input.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: JSON.stringify(c.args) });
      if (round.late) input.push({ role: 'user', content: 'still there?' });
      for (const c of round.calls) if (!c.unanswered) input.push({ type: 'function_call_output', call_id: c.id, output: c.output });
      if (round.orphan) input.push({ type: 'function_call_output', call_id: round.orphan.id, output: round.orphan.output });
    }
    input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.answer }] });
  }
  return { model: 'gpt-5', input };
}

function gemini(turns) {
  const contents = [];
  for (const turn of turns) {
    contents.push({ role: 'user', parts: [{ text: turn.user }] });
    for (const round of turn.rounds) {
      const say = round.say ? [{ text: round.say }] : [];
      contents.push({ role: 'model', parts: [...say, ...round.calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } }))] });
      const parts = round.calls.filter((c) => !c.unanswered).map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { output: c.output } } }));
      if (round.orphan) parts.push({ functionResponse: { id: round.orphan.id, name: round.orphan.name, response: { output: round.orphan.output } } });
      if (round.late) contents.push({ role: 'user', parts: [{ text: 'still there?' }] });
      if (parts.length > 0) contents.push({ role: 'user', parts });
    }
    contents.push({ role: 'model', parts: [{ text: turn.answer }] });
  }
  return { systemInstruction: { parts: [{ text: 'You are a helpful coding assistant.' }] }, contents };
}

export async function generateRequests(file, count, { seed = 1 } = {}) {
  const rand = new Rng(seed).next;
  const out = fs.createWriteStream(file, { highWaterMark: 16 << 20 });
  let buffer = '';
  let bytes = 0;
  let broken = 0;
  for (let n = 0; n < count; n++) {
    let turns = conversation(rand, n);
    if (rand() < 0.015) {
      turns = breakOne(rand, turns);
      broken += 1;
    }
    const shape = rand();
    const line = JSON.stringify(shape < 0.7 ? chat(turns) : shape < 0.8 ? anthropic(turns) : shape < 0.9 ? responses(turns) : gemini(turns)) + '\n';
    buffer += line;
    bytes += Buffer.byteLength(line);
    if (buffer.length > 4 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  return { lines: count, bytes, broken };
}

/** A cached dataset of `count` conversations for `seed`, generated when missing. */
export async function ensureRequests(count, { seed = 1, dir = DATA_DIR, log = console.log } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `requests-${count}-s${seed}-v${VERSION}.jsonl`);
  const marker = `${file}.meta.json`;
  try {
    const meta = JSON.parse(fs.readFileSync(marker, 'utf8'));
    if (fs.statSync(file).size === meta.bytes) return { file, ...meta };
  } catch { /* missing or stale: regenerate */ }
  ensureSpace(dir, count * 4096);
  log(`generating a dataset of ${count} conversations (seed ${seed}) → ${path.relative(process.cwd(), file)} ...`);
  const tmp = `${file}.tmp-${process.pid}`;
  const meta = await generateRequests(tmp, count, { seed });
  fs.renameSync(tmp, file);
  fs.writeFileSync(marker, JSON.stringify(meta));
  log(`  ${meta.lines} lines, ${fmtBytes(meta.bytes)}, ${meta.broken} with a pairing problem`);
  return { file, ...meta };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [count, target] = process.argv.slice(2);
  if (!count || !target) {
    console.error('usage: node bench/requests.mjs <count> <out.jsonl>');
    process.exit(2);
  }
  console.log(JSON.stringify(await generateRequests(target, Number(count))));
}
