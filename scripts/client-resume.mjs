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
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { clientBinary, codexConfig, codexProviders, keepRunFiles, placeClaude, placeCodex, runClient } from './resume/client-homes.mjs';
import { onRequestBody } from './resume/request-body.mjs';
import { failer, scriptArgs } from './resume/script-args.mjs';
import { NO_RESPONSE, SYNTHETIC_MARKERS, UUID_ALL, claudeFileItems, claudeRequestItems, codexFileItems, codexRequestItems, compare, records } from './resume/history-items.mjs';

const USAGE = 'usage: node scripts/client-resume.mjs [--clients <dir>] [--td <cli>] [--modes original,discard,synthetic] [--client claude|codex] [--timeout <s>] [--keep <dir>] [--isolate] <session.jsonl | folder>...';
const PROMPT = 'continue';

const fail = failer('client-resume');
const parsed = scriptArgs(fail, USAGE, {
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

function binary(client) {
  const found = clientBinary(client, opts.clients);
  if (found.missing !== undefined) fail(found.missing);
  return found.path;
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

function guessClient(file, recs) {
  if (/(^|[/_])rollout-[^/]*\.jsonl$/.test(file) || file.includes('.codex')) return 'codex';
  return recs.some(({ value }) => value.type === 'session_meta' || value.type === 'response_item' || 'payload' in value) ? 'codex' : 'claude';
}

// ---------------------------------------------------------------------------------------------
// One run: a fresh HOME, the capture server, the client.

function startServer(client) {
  const captured = [];
  const server = createServer((req, res) => {
    onRequestBody(req, (_raw, body) => {
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
        run = await runClient(binary('claude'), ['-p', '--resume', placed.id, PROMPT], { cwd: placed.cwd, env: { ...placed.env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` }, timeoutMs });
      } else {
        writeFileSync(join(placed.codexHome, 'config.toml'), codexConfig(port, codexProviders(recs)));
        run = await runClient(binary('codex'), ['exec', '--skip-git-repo-check', 'resume', placed.id, PROMPT], { cwd: placed.cwd, env: placed.env, timeoutMs });
      }
    } finally {
      server.close();
    }
    if (opts.keep !== undefined) keepRunFiles(root, captured, run);
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
