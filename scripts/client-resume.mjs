#!/usr/bin/env node
// Resumes sessions with the real Claude Code and Codex clients, offline, before and after
// `transcript-doctor repair`, and checks whether the request each client builds from the file
// needed an in-memory patch. Both clients repair some damage silently when they resume (Claude
// Code's ensureToolResultPairing, Codex's "aborted" outputs), and that repair only shows in the
// request they send, so the request is what is judged.
//
//   node scripts/client-resume.mjs [options] <session.jsonl | folder>...
//
//   --clients <dir>    folder where `npm install @anthropic-ai/claude-code @openai/codex` ran; the
//                      native binaries are found in its node_modules (or set CLAUDE_BIN / CODEX_BIN)
//   --td <file>        transcript-doctor CLI (default: bin/transcript-doctor.js of this checkout)
//   --modes <list>     original,discard,synthetic (default: all three; "original" is the file as
//                      given, the baseline that tells damage the client heals from our own)
//   --client <name>    claude or codex for every file (default: guessed from each file's records)
//   --timeout <s>      per client run (default 60); the process group is killed after it
//   --keep <dir>       keep each run's folder (session, config, captured request, stdout, stderr)
//   --isolate          re-run this script inside a fresh network namespace that has only loopback
//                      (`unshare -n`, needs root or user namespaces), so no byte can leave the host
//
// Each run copies the session into a fresh HOME (CLAUDE_CONFIG_DIR/projects/<cwd slug>/<id>.jsonl,
// or CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<id>.jsonl), starts a capture server on 127.0.0.1
// and resumes: `claude -p --resume <id> continue` (the server answers 400 after capturing; only
// the first conversation request counts, the client retries) or `codex exec resume <id> continue`
// (the server answers a one-message Responses stream). Only 127.0.0.1 is ever configured: telemetry,
// updates and non-essential traffic are switched off by environment, and Codex gets a config.toml
// in which every provider the rollout names (and the built-in OpenAI one, through openai_base_url)
// is the capture server. Folders are searched for *.jsonl.
//
// The captured history is compared with the history the file holds. Claude Code: the parentUuid
// chain from the last message, with every part of a split assistant message (same message.id) and
// the results that answer it, without meta and API-error records. Codex: the response items, from
// the last compaction on. Patches: synthetic results ("[Tool call interrupted…", "aborted"), "No
// response requested." inserted, tool calls or results dropped, invented, duplicated or moved,
// messages dropped (empty text blocks too), records replayed from off the chain (a bridged gap),
// resuming from an earlier leaf, Codex's "Orphan function call output" log. A run that sends no
// conversation request, or in which Codex starts a new session, is refused, with the client's line.
//
// A repaired run is also held to the original's: a message, call or real result of the file that
// the client sent when it resumed the original and no longer sends after the repair is lost
// history (outcome lost-history, not resumable): the repair made the client drop what it loaded.
// Lines the client does not load (a message whose content holds a bare string) are not the file's
// history, and the client resumes from the last message, or from the newest one hanging on it.
//
// Output: one JSON line per session and mode ({file, client, mode, outcome: clean | patched |
// refused | lost-history | repair-failed, patches, lost, reason, repairRemoved: tool-call ids the
// repair mentions fewer times than the original}), then one summary line per client and mode
// ({summary, sessions, resumable, clean, patched, patchKinds, refused, refusals, lostHistory}).
// Exit 0 when it ran, 2 on bad usage.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = 'usage: node scripts/client-resume.mjs [--clients <dir>] [--td <cli>] [--modes original,discard,synthetic] [--client claude|codex] [--timeout <s>] [--keep <dir>] [--isolate] <session.jsonl | folder>...';
const PROMPT = 'continue';

function fail(message) {
  console.error(`client-resume: ${message}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      clients: { type: 'string' },
      td: { type: 'string' },
      modes: { type: 'string', default: 'original,discard,synthetic' },
      client: { type: 'string' },
      timeout: { type: 'string', default: '60' },
      keep: { type: 'string' },
      isolate: { type: 'boolean', default: false },
    },
  });
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
const opts = parsed.values;
if (parsed.positionals.length === 0) fail(USAGE);

if (opts.isolate) {
  // A new network namespace whose only interface is loopback; the script runs again inside it.
  const args = process.argv.slice(1).filter((a) => a !== '--isolate');
  const inner = `ip link set lo up && exec "$0" "$@"`;
  const child = spawnSync('unshare', ['-n', 'sh', '-c', inner, process.execPath, ...args], { stdio: 'inherit' });
  if (child.error) fail(`--isolate: ${child.error.message}`);
  process.exit(child.status ?? 2);
}

const modes = opts.modes.split(',').filter(Boolean);
for (const mode of modes) if (!['original', 'discard', 'synthetic'].includes(mode)) fail(`unknown mode ${mode}`);
if (opts.client !== undefined && !['claude', 'codex'].includes(opts.client)) fail(`unknown client ${opts.client}`);
const timeoutMs = Number(opts.timeout) * 1000;
if (!(timeoutMs > 0)) fail(`--timeout must be a positive number of seconds`);
const td = resolve(opts.td ?? new URL('../bin/transcript-doctor.js', import.meta.url).pathname);
if (!existsSync(td)) fail(`transcript-doctor CLI not found: ${td}`);

const BINARIES = {
  claude: { env: 'CLAUDE_BIN', path: 'node_modules/@anthropic-ai/claude-code-linux-x64/claude' },
  codex: { env: 'CODEX_BIN', path: 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex' },
};
function binary(client) {
  const { env, path } = BINARIES[client];
  const found = process.env[env] ?? (opts.clients === undefined ? undefined : join(resolve(opts.clients), path));
  if (found === undefined || !existsSync(found)) fail(`${client} binary not found: set ${env} or pass --clients <dir> (looked for ${found ?? path})`);
  return found;
}

function* sessionFiles(path) {
  if (!existsSync(path)) fail(`no such file or folder: ${path}`);
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) {
    const child = join(path, name);
    if (statSync(child).isDirectory()) yield* sessionFiles(child);
    else if (name.endsWith('.jsonl')) yield child;
  }
}

/** Every line that parses as a JSON object, with its 1-based line number. */
function records(text) {
  const out = [];
  text.split('\n').forEach((line, index) => {
    try {
      const value = JSON.parse(line);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) out.push({ line: index + 1, value });
    } catch {
      // unreadable lines are the repair's business; the client skips them too
    }
  });
  return out;
}

function guessClient(file, recs) {
  if (/(^|[/_])rollout-[^/]*\.jsonl$/.test(file) || file.includes('.codex')) return 'codex';
  return recs.some(({ value }) => value.type === 'session_meta' || value.type === 'response_item' || 'payload' in value) ? 'codex' : 'claude';
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const UUID_ALL = new RegExp(UUID.source, 'gi');

// ---------------------------------------------------------------------------------------------
// What the file holds, as ordered items: user text (U), assistant text (A), tool call (C:id),
// tool result (R:id). Both sides are reduced to the same items so they can be compared.

const SYNTHETIC_MARKERS = [
  '[Tool call interrupted',
  '[Tool call result not in this copy',
  '[Request interrupted: the session ended',
  '[Tool call did not complete',
  // Claude Code 2.1.328's answer to a call left unanswered before a later prompt (tried).
  '[Tool result missing due to internal error]',
];
const NO_RESPONSE = 'No response requested.';

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : '')).join('');
}

/** Items of one Anthropic-shaped message (a file entry's or a request's). */
function claudeItems(role, content, line) {
  const items = [];
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  for (const block of blocks) {
    if (block?.type === 'text' && typeof block.text === 'string') items.push({ kind: role === 'assistant' ? 'A' : 'U', key: block.text.trim(), text: block.text, line });
    else if (block?.type === 'tool_use' || block?.type === 'server_tool_use') items.push({ kind: 'C', key: block.id, line });
    else if (block?.type === 'tool_result') items.push({ kind: 'R', key: block.tool_use_id, text: textOf(block.content), line });
  }
  return items;
}

/** A message line Claude Code loads: one whose content parts are all blocks (it skips a line holding a bare string). */
function loadedMessage(value) {
  return (value.type === 'user' || value.type === 'assistant') && value.isSidechain !== true && value.message && !skipped(value);
}

function skipped(value) {
  const content = value.message?.content;
  return Array.isArray(content) && content.some((part) => part === null || typeof part !== 'object' || Array.isArray(part));
}

/**
 * Where Claude Code 2.1.328 resumes (without a last-prompt record): from the last message; when
 * another message carries a newer timestamp, from the newest message whose chain passes through
 * that last one (tried: a last line stamped earlier than a line hanging on its uuid resumed from
 * that line, a last line stamped earlier than a sibling branch still won).
 */
function claudeLeaf(messages, recs, byUuid) {
  const last = messages.at(-1);
  if (last === undefined || recs.some(({ value }) => value.type === 'last-prompt')) return last;
  // The first message of the newest time: with equal times the last message does not win.
  let newest;
  for (const r of messages) if (typeof r.value.timestamp === 'string' && r.value.timestamp > (newest?.value.timestamp ?? '')) newest = r;
  if (newest === undefined || newest === last) return last;
  const reaches = (r) => {
    const seen = new Set();
    for (let at = r; at !== undefined && !seen.has(at.value.uuid); at = byUuid.get(at.value.parentUuid)?.at(-1)) {
      if (at.value.uuid === last.value.uuid) return true;
      seen.add(at.value.uuid);
    }
    return false;
  };
  let leaf = last;
  for (const r of messages) if (r !== last && typeof r.value.timestamp === 'string' && r.value.timestamp >= (leaf === last ? '' : leaf.value.timestamp) && reaches(r)) leaf = r;
  return leaf;
}

/** The parentUuid chain that ends where the client resumes, oldest first. */
function claudeFileItems(recs) {
  const messages = recs.filter(({ value }) => loadedMessage(value));
  // A uuid is its last record, wherever it stands (the client's map: a later copy replaces the
  // earlier line, and a parent appended after its child by a concurrent writer is found).
  const byUuid = new Map();
  for (const r of recs) if (typeof r.value.uuid === 'string' && !skipped(r.value)) byUuid.set(r.value.uuid, [...(byUuid.get(r.value.uuid) ?? []), r]);
  const leaf = claudeLeaf(messages, recs, byUuid);
  if (leaf === undefined) return { items: [], offChain: [] };
  const chain = [];
  let current = leaf;
  const seen = new Set();
  while (current !== undefined && !seen.has(current.line)) {
    seen.add(current.line);
    chain.push(current);
    const parent = current.value.parentUuid;
    if (typeof parent !== 'string') break;
    current = byUuid.get(parent)?.at(-1);
  }
  chain.reverse();
  // Parallel tool calls fan out: Claude Code writes one record per content block, siblings under
  // one parent, and replays every part of an assistant message (same message.id) as one message at
  // the place of its first part, then every result that answers a call of it. Each record gets the
  // chain position it is replayed at.
  const position = new Map(chain.map((r, index) => [r.line, index]));
  const firstPart = new Map();
  for (const r of chain) if (r.value.type === 'assistant' && r.value.message.id && !firstPart.has(r.value.message.id)) firstPart.set(r.value.message.id, position.get(r.line));
  for (const r of messages) if (r.value.type === 'assistant' && firstPart.has(r.value.message.id)) position.set(r.line, firstPart.get(r.value.message.id));
  const placed = messages.filter((r) => position.has(r.line));
  const calls = new Set(placed.flatMap((r) => claudeItems('assistant', r.value.message.content, r.line)).filter((i) => i.kind === 'C').map((i) => i.key));
  const parentPosition = new Map(placed.map((r) => [r.value.uuid, position.get(r.line)]));
  for (const r of messages) {
    const blocks = Array.isArray(r.value.message.content) ? r.value.message.content : [];
    if (!position.has(r.line) && r.value.type === 'user' && parentPosition.has(r.value.parentUuid) && blocks.length > 0 && blocks.every((b) => b?.type === 'tool_result' && calls.has(b.tool_use_id))) position.set(r.line, parentPosition.get(r.value.parentUuid) + 0.5);
  }
  // Meta records and the client's own API-error records are never sent.
  const replayed = messages.filter((r) => position.has(r.line) && r.value.isMeta !== true && r.value.isApiErrorMessage !== true).sort((a, b) => position.get(a.line) - position.get(b.line) || a.line - b.line);
  const items = replayed.flatMap(({ line, value }) => claudeItems(value.message.role ?? value.type, value.message.content, line));
  const offChain = messages.filter((r) => !position.has(r.line)).flatMap(({ line, value }) => claudeItems(value.message.role ?? value.type, value.message.content, line));
  return { items, offChain };
}

function claudeRequestItems(body) {
  const items = [];
  for (const message of body.messages ?? []) items.push(...claudeItems(message.role, message.content, undefined));
  return items;
}

/** Items of one Responses input item (a rollout response_item's payload or a request's). */
function codexItem(item, line) {
  switch (item?.type) {
    case 'message': {
      const text = textOf(item.content);
      return [{ kind: item.role === 'assistant' ? 'A' : item.role === 'user' ? 'U' : 'D', key: text.trim(), text, line }];
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
      return [{ kind: 'C', key: item.call_id ?? item.id, line }];
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const output = typeof item.output === 'string' ? item.output : typeof item.output?.content === 'string' ? item.output.content : JSON.stringify(item.output);
      return [{ kind: 'R', key: item.call_id, text: output, line }];
    }
    default:
      // Codex skips an item it cannot read; a message without a type still counts as the file's.
      if (typeof item?.type !== 'string' && item?.content !== undefined) return [{ kind: item.role === 'assistant' ? 'A' : 'U', key: textOf(item.content).trim(), text: textOf(item.content), line }];
      return [];
  }
}

function codexFileItems(recs) {
  let items = [];
  for (const { line, value } of recs) {
    const payload = value.payload;
    if (value.type === 'compacted' && Array.isArray(payload?.replacement_history)) items = payload.replacement_history.flatMap((item) => codexItem(item, line));
    else if (value.type === 'compacted') {
      // An older compaction keeps only the user messages (cut to a token budget) and the summary.
      items = items.filter((i) => i.kind === 'U').map((i) => ({ ...i, loose: true }));
      if (typeof payload?.message === 'string') items.push({ kind: 'U', key: payload.message.trim(), text: payload.message, line });
    }
    else if (value.type === 'response_item') items.push(...codexItem(payload, line));
  }
  return { items, offChain: [] };
}

function codexRequestItems(body) {
  return (body.input ?? []).flatMap((item) => codexItem(item, undefined));
}

// ---------------------------------------------------------------------------------------------
// The comparison. Items the client adds around the history (instructions, environment context,
// reminders, the new prompt) are not patches; anything of the file's that is missing, moved or
// answered with a placeholder is.

function compare(fileItems, offChainItems, requestItems, fileText, log) {
  const patches = [];
  const add = (kind, detail) => patches.push({ kind, detail });
  const inFile = (needle) => fileText.includes(needle) || fileText.includes(JSON.stringify(needle).slice(1, -1));

  for (const item of requestItems) {
    const text = item.text ?? '';
    const marker = SYNTHETIC_MARKERS.find((m) => text.includes(m));
    if (marker !== undefined && !inFile(marker)) add('synthetic-result', `${item.kind === 'R' ? `result for ${item.key}` : 'text'}: ${text.slice(0, 60)}`);
    if (item.kind === 'R' && text.trim() === 'aborted' && !fileItems.some((f) => f.kind === 'R' && f.key === item.key)) add('synthetic-result', `"aborted" output for ${item.key}`);
    if (item.kind === 'A' && text.trim() === NO_RESPONSE && !inFile(NO_RESPONSE)) add('inserted-no-response', NO_RESPONSE);
  }

  for (const kind of ['C', 'R']) {
    const fileKeys = fileItems.filter((i) => i.kind === kind).map((i) => i.key);
    const requestKeys = requestItems.filter((i) => i.kind === kind).map((i) => i.key);
    const name = kind === 'C' ? 'tool-call' : 'tool-result';
    for (const item of fileItems.filter((i) => i.kind === kind && !requestKeys.includes(i.key))) add(`dropped-${name}`, `${item.key} (line ${item.line})`);
    const seen = new Set();
    for (const key of requestKeys) {
      if (seen.has(key)) add(`duplicated-${name}`, key);
      seen.add(key);
      if (!fileKeys.includes(key) && !inFile(key) && !(kind === 'R' && patches.some((p) => p.kind === 'synthetic-result' && p.detail.includes(key)))) add(`invented-${name}`, key);
    }
  }

  // Order of the calls and results both sides hold. Parallel calls of one message (and their
  // results) may come in any order, so each run of calls or of results is compared as a set.
  const order = (items, other) => {
    const keys = items.filter((i) => (i.kind === 'C' || i.kind === 'R') && other.some((o) => o.kind === i.kind && o.key === i.key)).map((i) => `${i.kind}:${i.key}`);
    const runs = [];
    for (const key of [...new Set(keys)]) {
      if (runs.length > 0 && runs.at(-1)[0][0] === key[0]) runs.at(-1).push(key);
      else runs.push([key]);
    }
    return runs.map((run) => run.sort().join(' '));
  };
  const fileOrder = order(fileItems, requestItems);
  const requestOrder = order(requestItems, fileItems);
  const at = fileOrder.findIndex((run, index) => requestOrder[index] !== run);
  if (at !== -1) add('moved', `file has ${fileOrder[at].slice(0, 60)} where the request has ${(requestOrder[at] ?? 'nothing').slice(0, 60)}`);

  // Records of the file that its history does not reach (another branch, across a missing parent).
  for (const item of requestItems) {
    if (item.kind === 'U' || item.key === '' || fileItems.some((f) => f.kind === item.kind && f.key === item.key)) continue;
    const elsewhere = offChainItems.find((f) => f.kind === item.kind && f.key === item.key);
    if (elsewhere !== undefined) add('replayed-off-chain', `${item.kind === 'C' ? 'call' : item.kind === 'R' ? 'result' : 'text'} ${item.key.slice(0, 40)} (line ${elsewhere.line})`);
  }

  // Messages: every text of the file must reach the request (empty ones too: a client that drops
  // them changed the history).
  const requestTexts = requestItems.filter((i) => i.kind === 'U' || i.kind === 'A' || i.kind === 'D');
  for (const item of fileItems.filter((i) => (i.kind === 'U' || i.kind === 'A' || i.kind === 'D') && !i.loose)) {
    const found = requestTexts.some((r) => r.key === item.key || (item.key !== '' && r.key.includes(item.key)));
    if (found) continue;
    if (item.key === '') add('dropped-empty-text', `${item.kind === 'A' ? 'assistant' : 'user'} text (line ${item.line})`);
    else add('dropped-message', `${item.kind === 'A' ? 'assistant' : item.kind === 'U' ? 'user' : 'developer'} "${item.key.slice(0, 50)}" (line ${item.line})`);
  }

  // Where the history stops: the file's last item the request still holds.
  const last = fileItems.at(-1);
  if (last !== undefined && patches.some((p) => p.detail.endsWith(`(line ${last.line})`))) {
    const kept = [...fileItems].reverse().find((i) => !patches.some((p) => p.detail.endsWith(`(line ${i.line})`)));
    add('earlier-leaf', `resumed from line ${kept?.line ?? 'none'} instead of line ${last.line}`);
  }

  for (const line of log.split('\n')) {
    const orphan = /Orphan function call output for call id: (\S+)/.exec(line);
    if (orphan) add('orphan-output-dropped', orphan[1]);
  }
  return patches;
}

// ---------------------------------------------------------------------------------------------
// One run: a fresh HOME, the capture server, the client.

function startServer(client) {
  const captured = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      captured.push({ method: req.method, url: req.url, body });
      if (client === 'claude' || !req.url.endsWith('/responses')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'capture server: request recorded' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const id = `resp_${captured.length}`;
      const events = [
        { type: 'response.created', response: { id } },
        { type: 'response.output_item.done', output_index: 0, item: { type: 'message', role: 'assistant', id: `msg_${captured.length}`, content: [{ type: 'output_text', text: 'ok' }] } },
        { type: 'response.completed', response: { id, usage: { input_tokens: 0, input_tokens_details: null, output_tokens: 0, output_tokens_details: null, total_tokens: 0 } } },
      ];
      res.end(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
    });
  });
  return new Promise((resolveServer) => server.listen(0, '127.0.0.1', () => resolveServer({ server, captured, port: server.address().port })));
}

function runClient(command, args, { cwd, env }) {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** Environment shared by both clients: a private HOME, nothing inherited that could point elsewhere. */
function baseEnv(home) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    USER: 'user',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    TMPDIR: join(home, 'tmp'),
  };
}

function placeClaude(file, recs, root) {
  const cwd = join(root, 'project');
  const home = join(root, 'home');
  const config = join(home, '.claude');
  const fromRecords = recs.map(({ value }) => value.sessionId).find((id) => typeof id === 'string' && UUID.test(id));
  const fromName = UUID.exec(basename(file))?.[0];
  const id = fromName ?? fromRecords ?? randomUUID();
  const projects = join(config, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(projects, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(home, 'tmp'), { recursive: true });
  copyFileSync(file, join(projects, `${id}.jsonl`));
  return { id, cwd, home, env: {
    ...baseEnv(home),
    CLAUDE_CONFIG_DIR: config,
    ANTHROPIC_API_KEY: 'capture',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_ENABLE_TELEMETRY: '0',
  } };
}

function placeCodex(file, recs, root) {
  const cwd = join(root, 'project');
  const home = join(root, 'home');
  const codexHome = join(home, '.codex');
  const meta = recs.find(({ value }) => value.type === 'session_meta')?.value.payload;
  const id = (typeof meta?.id === 'string' && meta.id) || UUID.exec(basename(file))?.[0] || randomUUID();
  const stamp = /^rollout-(\d{4})-(\d{2})-(\d{2})T(\d{2}-\d{2}-\d{2})/.exec(basename(file));
  const when = stamp ? stamp.slice(1) : (() => {
    const date = new Date(Date.parse(meta?.timestamp ?? '') || Date.now());
    const iso = date.toISOString();
    return [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10), iso.slice(11, 19).replaceAll(':', '-')];
  })();
  const folder = join(codexHome, 'sessions', when[0], when[1], when[2]);
  mkdirSync(folder, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(home, 'tmp'), { recursive: true });
  copyFileSync(file, join(folder, `rollout-${when[0]}-${when[1]}-${when[2]}T${when[3]}-${id}.jsonl`));
  return { id, cwd, home, codexHome, env: {
    ...baseEnv(home),
    CODEX_HOME: codexHome,
    MOCK_KEY: 'capture',
    CODEX_API_KEY: 'capture',
    CODEX_SANDBOX_NETWORK_DISABLED: '1',
    RUST_LOG: 'error',
  } };
}

/** The providers the rollout names: Codex refuses to resume a chat whose provider is not configured. */
function codexProviders(recs) {
  const ids = recs.map(({ value }) => value.payload?.model_provider).filter((id) => typeof id === 'string' && /^[\w.-]+$/.test(id));
  return [...new Set([...ids, 'mock'])];
}

// Codex refuses to redefine these; the built-in OpenAI provider takes `openai_base_url` instead.
const CODEX_BUILT_IN = new Set(['openai', 'ollama', 'lmstudio', 'oss']);

/** A config.toml whose every provider is the capture server. */
function codexConfig(port, providers) {
  const entries = providers.filter((id) => !CODEX_BUILT_IN.has(id)).flatMap((id) => [
    `[model_providers.${JSON.stringify(id)}]`,
    'name = "capture"',
    `base_url = "http://127.0.0.1:${port}/v1"`,
    'wire_api = "responses"',
    'env_key = "MOCK_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ]);
  return [
    'model = "gpt-5"',
    `model_provider = ${JSON.stringify(providers[0])}`,
    'check_for_update_on_startup = false',
    `openai_base_url = "http://127.0.0.1:${port}/v1"`,
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[features]',
    'responses_websockets = false',
    'responses_websockets_v2 = false',
    '',
    ...entries,
  ].join('\n');
}

/** The client's own words when it did not resume: its first error-looking line, without our paths. */
function refusalLine(run, root) {
  const lines = `${run.stderr}\n${run.stdout}`.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').replaceAll(root, '…').trim()).filter(Boolean);
  if (run.timedOut) return `timed out after ${timeoutMs / 1000} s`;
  const line = lines.find((l) => /error|refus|cannot|could not|not found|no conversation|does not|invalid|failed/i.test(l)) ?? lines[0] ?? `exit ${run.code ?? run.signal}, no output`;
  return line.length > 300 ? `${line.slice(0, 80)} … ${line.slice(-200)}` : line;
}

/** Tool-call ids the repair mentions fewer times than the original (a dropped call, result or event). */
function removedCalls(original, repaired) {
  const count = (text, id) => text.split(`"${id}"`).length - 1;
  const ids = new Set([...original.matchAll(/"(?:call_id|id|tool_use_id)":"((?:toolu_|call_)[^"]+)"/g)].map((m) => m[1]));
  return [...ids].filter((id) => count(repaired, id) < count(original, id)).map((id) => `${id} ${count(original, id)}→${count(repaired, id)}`);
}

/** The conversation request: the first one that carries the prompt (Claude Code may send side requests). */
function conversationRequest(client, captured) {
  // Claude Code 2.1 appends `system` role messages after the prompt; the prompt is the last user message.
  const carries = (body) => JSON.stringify(client === 'claude' ? body?.messages?.filter((m) => m?.role === 'user').at(-1) ?? '' : body?.input ?? '').includes(PROMPT);
  return captured.find(({ body }) => body !== undefined && (client === 'claude' ? Array.isArray(body.messages) : Array.isArray(body.input)) && carries(body));
}

/** What each file's original resume sent, for the repaired runs of the same file to be held to. */
const originalRequests = new Map();

/**
 * The file's messages, calls and real results the client sent when it resumed the original and
 * no longer sends after the repair: a repair must never cost the client history it loaded. Calls
 * the client had to answer with a placeholder are discard mode's to drop, with the placeholders;
 * the turn the client adds itself never counts. A repaired file from which the client sends
 * nothing of the file's own (our closing turn aside) has lost its history too.
 */
function lostFromOriginal(original, sent, text, mode) {
  if (original === undefined) return [];
  // Reminders are the client's context around the history (a recorded request in the file holds them too), not history.
  const own = (i, inText) => i.key !== '' && !(i.kind === 'A' && i.key === NO_RESPONSE) && !i.key.startsWith('<system-reminder>') && (inText.includes(i.key) || inText.includes(JSON.stringify(i.key).slice(1, -1)));
  const before = original.sent.filter((i) => own(i, original.text));
  if (before.length > 0 && !sent.some((i) => own(i, text))) return ['no history: the request holds nothing of the file'];
  const placeholder = (i) => i.kind === 'R' && SYNTHETIC_MARKERS.some((m) => (i.text ?? '').includes(m) && !original.text.includes(m));
  const patched = new Set(mode === 'discard' ? original.sent.filter(placeholder).map((i) => i.key) : []);
  const has = new Set(sent.map((i) => `${i.kind}:${i.key}`));
  return before
    .filter((i) => !patched.has(i.key) && !placeholder(i) && !has.has(`${i.kind}:${i.key}`))
    .map((i) => `${i.kind === 'C' ? 'call' : i.kind === 'R' ? 'result' : i.kind === 'A' ? 'assistant' : 'user'} ${i.key.slice(0, 50)}`);
}

async function resumeOnce(file, client, mode) {
  const root = mkdtempSync(join(opts.keep ?? tmpdir(), 'resume-'));
  const result = { file, client, mode };
  try {
    let session = file;
    if (mode !== 'original') {
      session = join(root, 'repaired.jsonl');
      const repair = spawnSync(process.execPath, [td, 'repair', '--mode', mode, file, '--out', session, '--reporter', 'json'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      result.repairExit = repair.status;
      if (repair.status !== 0 && repair.status !== 1) return { ...result, outcome: 'repair-failed', reason: (repair.stderr || repair.stdout).split('\n')[0] };
      if (!existsSync(session)) copyFileSync(file, session);
    }
    const text = readFileSync(session, 'utf8');
    if (mode !== 'original') {
      const removed = removedCalls(readFileSync(file, 'utf8'), text);
      if (removed.length > 0) result.repairRemoved = removed;
    }
    const recs = records(text);
    const placed = client === 'claude' ? placeClaude(session, recs, root) : placeCodex(session, recs, root);
    const { server, captured, port } = await startServer(client);
    let run;
    try {
      if (client === 'claude') {
        run = await runClient(binary('claude'), ['-p', '--resume', placed.id, PROMPT], { cwd: placed.cwd, env: { ...placed.env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` } });
      } else {
        writeFileSync(join(placed.codexHome, 'config.toml'), codexConfig(port, codexProviders(recs)));
        run = await runClient(binary('codex'), ['exec', '--skip-git-repo-check', 'resume', placed.id, PROMPT], { cwd: placed.cwd, env: placed.env });
      }
    } finally {
      server.close();
    }
    if (opts.keep !== undefined) {
      writeFileSync(join(root, 'captured.ndjson'), captured.map((c) => JSON.stringify(c)).join('\n') + '\n');
      writeFileSync(join(root, 'client.stdout.txt'), run.stdout);
      writeFileSync(join(root, 'client.stderr.txt'), run.stderr);
    }
    result.id = placed.id;
    result.exit = run.code ?? run.signal;
    result.requests = captured.length;
    const request = conversationRequest(client, captured);
    if (request === undefined) return { ...result, outcome: 'refused', reason: refusalLine(run, root) };
    const fromFile = client === 'claude' ? claudeFileItems(recs) : codexFileItems(recs);
    const sent = client === 'claude' ? claudeRequestItems(request.body) : codexRequestItems(request.body);
    const patches = compare(fromFile.items, fromFile.offChain, sent, text, run.stderr);
    // Codex names the thread it runs in its banner: a new id with none of the file's history is a
    // fresh session (it could not use the id); with the history, a resume into a new thread.
    const started = /^session id: (\S+)/m.exec(run.stderr)?.[1];
    if (client === 'codex' && started !== undefined && started !== placed.id) {
      const nothingKept = fromFile.items.length > 0 && fromFile.items.every((i) => !sent.some((s) => s.kind === i.kind && s.key === i.key));
      if (nothingKept) return { ...result, outcome: 'refused', reason: `started a new session ${started} instead of resuming ${placed.id}` };
      result.resumedAs = started;
    }
    if (mode === 'original') originalRequests.set(file, { sent, text });
    const lost = lostFromOriginal(originalRequests.get(file), sent, text, mode);
    if (mode !== 'original' && lost.length > 0) return { ...result, outcome: 'lost-history', lost, fileItems: fromFile.items.length, sentItems: sent.length, patches };
    return { ...result, outcome: patches.length === 0 ? 'clean' : 'patched', fileItems: fromFile.items.length, sentItems: sent.length, patches };
  } finally {
    if (opts.keep === undefined) rmSync(root, { recursive: true, force: true });
  }
}

if (opts.keep !== undefined) mkdirSync(opts.keep, { recursive: true });
const summaries = new Map();
for (const path of parsed.positionals) {
  for (const file of sessionFiles(path)) {
    const client = opts.client ?? guessClient(file, records(readFileSync(file, 'utf8')));
    for (const mode of modes) {
      const result = await resumeOnce(file, client, mode);
      console.log(JSON.stringify(result));
      const key = `${client} ${mode}`;
      const s = summaries.get(key) ?? { summary: key, sessions: 0, resumable: 0, clean: 0, patched: 0, patchKinds: {}, refused: 0, refusals: {}, lostHistory: 0, repairFailed: 0 };
      s.sessions += 1;
      if (result.outcome === 'clean' || result.outcome === 'patched') s.resumable += 1;
      if (result.outcome === 'clean') s.clean += 1;
      if (result.outcome === 'refused') {
        s.refused += 1;
        const reason = result.reason.replace(/\S*\.jsonl:?/g, '<file>').replace(UUID_ALL, '<id>').slice(-100);
        s.refusals[reason] = (s.refusals[reason] ?? 0) + 1;
      }
      if (result.outcome === 'repair-failed') s.repairFailed += 1;
      if (result.outcome === 'lost-history') s.lostHistory += 1;
      if (result.outcome === 'patched') {
        s.patched += 1;
        for (const kind of new Set(result.patches.map((p) => p.kind))) s.patchKinds[kind] = (s.patchKinds[kind] ?? 0) + 1;
      }
      summaries.set(key, s);
    }
  }
}
for (const s of summaries.values()) console.log(JSON.stringify(s));
