#!/usr/bin/env node
// Resumes oversized sessions with the real clients, offline, before and after `transcript-doctor
// slim`, and judges the request each client sends, counted at a capture server on 127.0.0.1: its
// bytes and its tokens (scripts/resume/request-tokens.mjs: o200k_base for the OpenAI wire formats,
// bytes/3 where the model's tokenizer is not public) against the target, every prompt of the
// conversation still in it, every call answered once with no placeholder of the client's (no
// in-memory patch), no image of the file left out by the client, and no request of the client's
// own that carried the history before it (a compaction or summary run first: Claude Code's and
// pi's auto-compaction, Gemini CLI's compression, decided from the usage the file records).
//
//   node scripts/slim-resume.mjs [options]
//
//   --clients <dir>    folder where `npm install @anthropic-ai/claude-code @openai/codex` ran (or
//                      CLAUDE_BIN / CODEX_BIN); Gemini CLI, Qwen Code, Copilot CLI and pi are the
//                      packages in test/interop/node_modules
//   --agents <list>    claude,codex,gemini,qwen,copilot,pi (default: all)
//   --sessions <dir>   sessions written by scripts/oversized-sessions.mjs (default: written now, to a temp folder)
//   --scale <x>        how far over each model's window the written sessions go (default 1.3)
//   --client-written   also have Claude Code write one itself (scripts/resume/claude-written.mjs), turn by turn
//   --target <n|N%>    the request's size to get under, in tokens or a percent of the model's window
//                      (default 80%); slim is given the same target
//   --td <file>        transcript-doctor CLI (default: bin/transcript-doctor.js of this checkout)
//   --no-slim          resume the sessions as written only
//   --timeout <s>      per client run (default 120); the process group is killed after it
//   --keep <dir>       keep each run's folder (session, captured requests, client output)
//
// Output: one JSON line per session and phase ({session, agent, phase: before | after, estimator,
// outcome: sent | refused | not-run, bytes, tokens, textTokens (the strings alone: a low bound),
// historyTokens, target, underTarget (of tokens), promptsMissing, callsMissing, fileCompacted,
// pairing, placeholders, mediaInFile, mediaSent, mediaRemovedByClient, historyFirst, compactedByClient, ok}; calls and images a compaction in
// the file summarised may be missing), the slim run's line ({session, phase: slim, exit, …}), then one
// summary line per session.
// Exit 0 when it ran, 2 on bad usage.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { AGENTS, writeOversizedSessions } from './oversized-sessions.mjs';
import { CLIENTS, PROMPT } from './resume/clients.mjs';
import { clientBinary, keepRunFiles, runClient } from './resume/client-homes.mjs';
import { writeWithClaude } from './resume/claude-written.mjs';
import { records, SYNTHETIC_MARKERS } from './resume/history-items.mjs';
import { estimatorFor, requestTokens, tokenizerMissing } from './resume/request-tokens.mjs';
import { imageKey, imagesIn, pairing, turnsOf } from './resume/wire.mjs';
import { onRequestBody } from './resume/request-body.mjs';
import { failer, scriptArgs } from './resume/script-args.mjs';

const USAGE = 'usage: node scripts/slim-resume.mjs [--clients <dir>] [--agents claude,codex,gemini,qwen,copilot,pi] [--sessions <dir>] [--scale 1.3] [--target <tokens|N%>] [--td <cli>] [--no-slim] [--timeout <s>] [--keep <dir>]';

/** What each client puts in place of a result it does not have: a result that holds one was patched in memory. */
const PLACEHOLDERS = [
  ...SYNTHETIC_MARKERS,
  'Tool execution result was not recorded', // Qwen Code's repairOrphanedToolUseTurns
  'The execution of this tool, or a previous tool was interrupted.', // Copilot CLI
  'The tool execution result was lost due to context management truncation.', // Gemini CLI
  'No result provided', // pi-ai's transformMessages
];

const fail = failer('slim-resume');
const parsed = scriptArgs(fail, USAGE, {
  options: {
    clients: { type: 'string' },
    agents: { type: 'string', default: Object.keys(AGENTS).join(',') },
    sessions: { type: 'string' },
    scale: { type: 'string', default: '1.3' },
    'client-written': { type: 'boolean', default: false },
    target: { type: 'string', default: '80%' },
    td: { type: 'string' },
    'no-slim': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '120' },
    keep: { type: 'string' },
  },
});
const opts = parsed.values;
const agents = opts.agents.split(',').filter(Boolean);
for (const agent of agents) if (CLIENTS[agent] === undefined) fail(`unknown agent ${agent} (${Object.keys(CLIENTS).join(', ')})`);
for (const agent of agents) if (tokenizerMissing(CLIENTS[agent].wire) !== undefined) fail(tokenizerMissing(CLIENTS[agent].wire));
const timeoutMs = Number(opts.timeout) * 1000;
if (!(timeoutMs > 0)) fail('--timeout must be a positive number of seconds');
const targetMatch = /^(\d+(?:\.\d+)?)(%?)$/.exec(opts.target);
if (targetMatch === null) fail(`--target must be a number of tokens or a percent: ${opts.target}`);
const targetOf = (window) => (targetMatch[2] === '%' ? Math.floor((window * Number(targetMatch[1])) / 100) : Number(targetMatch[1]));
const td = resolve(opts.td ?? new URL('../bin/transcript-doctor.js', import.meta.url).pathname);
if (!opts['no-slim'] && !existsSync(td)) fail(`transcript-doctor CLI not found: ${td}`);

const work = mkdtempSync(join(opts.keep ?? tmpdir(), 'slim-resume-'));
const sessions = opts.sessions === undefined ? join(work, 'sessions') : resolve(opts.sessions);
const manifestFile = join(sessions, 'manifest.json');
const manifest = opts.sessions === undefined ? await writeOversizedSessions(sessions, { agents, scale: Number(opts.scale) }) : existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : fail(`no manifest.json in ${sessions} (write it with scripts/oversized-sessions.mjs)`);
if (opts['client-written'] && agents.includes('claude') && manifest['claude-written'] === undefined) {
  const binary = clientBinary('claude', opts.clients);
  if (binary.missing !== undefined) fail(binary.missing);
  const written = await writeWithClaude(sessions, { binary: binary.path, tokens: Math.round(AGENTS.claude.window * Number(opts.scale)), window: AGENTS.claude.window, timeoutMs });
  if (written.missing !== undefined) fail(written.missing);
  manifest['claude-written'] = written;
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 1) + '\n');
}

/** A server on 127.0.0.1 that keeps every request and answers as the client's provider would. */
function capture(respond) {
  const captured = [];
  const server = createServer((req, res) => {
    onRequestBody(req, (raw, body) => {
      captured.push({ method: req.method, url: req.url, bytes: raw.length, body });
      respond(req, body, res);
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, captured, port: server.address().port })));
}

/** The client's own words when it sent nothing: its first error-looking line, without our paths. */
function refusal(run, root) {
  if (run.timedOut) return `timed out after ${timeoutMs / 1000} s`;
  const lines = `${run.stderr}\n${run.stdout}`.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').replaceAll(root, '…').trim()).filter(Boolean);
  const line = lines.find((l) => /error|exceed|too (long|large)|refus|cannot|could not|not found|invalid|failed/i.test(l)) ?? lines[0] ?? `exit ${run.code ?? run.signal}, no output`;
  return line.length > 300 ? `${line.slice(0, 80)} … ${line.slice(-200)}` : line;
}

/** Distinct images in what the client replays of the file's records. */
function fileImages(text, replayed) {
  return new Set(records(text).flatMap(({ value }) => imagesIn(replayed(value))).map(imageKey));
}

const userTexts = (turns) => turns.filter((t) => t.role === 'user').flatMap((t) => t.texts);

/** The request that carries the prompt: the one whose last user turn with text holds it. */
function isConversation(turns) {
  const last = turns.filter((t) => t.role === 'user' && t.texts.some((text) => text.trim() !== '')).at(-1);
  // The prompt alone, or after what the client puts before it (Copilot's date); not a summary request that mentions it.
  return last !== undefined && last.texts.some((text) => text.trim() === PROMPT || text.trim().endsWith(`\n${PROMPT}`));
}

async function resume(agent, file, entry, phase) {
  const client = CLIENTS[agent];
  const root = mkdtempSync(join(work, `${agent}-${phase}-`));
  const target = targetOf(entry.window);
  const result = { agent, phase, target, estimator: estimatorFor(client.wire) };
  try {
    const bin = client.binary(opts);
    if (bin.missing !== undefined) return { ...result, outcome: 'not-run', reason: bin.missing };
    const placed = client.place(file, root, entry);
    const placedText = readFileSync(placed.session, 'utf8');
    const { server, captured, port } = await capture(client.respond);
    let run;
    try {
      run = await runClient(bin.path, [...bin.prefix, ...placed.args], { cwd: placed.cwd, env: placed.env(port), timeoutMs });
    } finally {
      server.close();
    }
    if (opts.keep !== undefined) keepRunFiles(root, captured, run);
    // What the client appended to the session (or all of it, when it rewrote the file): its own compaction record.
    const left = readFileSync(placed.session, 'utf8');
    // A record the file held already (slim's, kept when the client rewrites the file) is not the client's.
    const compactedByClient = [...new Set([...(left.startsWith(placedText) ? left.slice(placedText.length) : left).matchAll(client.compaction)].map((m) => m[0]))].filter((found) => !placedText.includes(found));
    const requests = captured.filter((c) => c.body !== undefined && !(client.auxiliary?.(c.body) ?? false)).map((c) => ({ ...c, turns: turnsOf(client.wire, c.body) }));
    const at = requests.findIndex((r) => isConversation(r.turns));
    // A request before the conversation's that already held the history: the client ran something on it first.
    const historyFirst = requests.slice(0, at === -1 ? undefined : at).filter((r) => r.turns.some((t) => t.texts.some((text) => entry.prompts.some((prompt) => text.includes(prompt))))).map((r) => `${r.method} ${r.url} (${r.bytes} bytes)`);
    result.requests = captured.length;
    result.exit = run.code ?? run.signal;
    if (at === -1) return { ...result, outcome: 'refused', reason: refusal(run, root), historyFirst, compactedByClient, ok: false };
    const request = requests[at];
    const sent = userTexts(request.turns).join('\n');
    const calls = new Set(request.turns.flatMap((t) => t.calls));
    const { tokens, textTokens } = requestTokens(request.body, client.wire);
    const history = requestTokens(request.body.messages ?? request.body.input ?? request.body.contents, client.wire).tokens;
    const inFile = fileImages(readFileSync(file, 'utf8'), client.replayed);
    const inRequest = new Set(imagesIn(request.body).map(imageKey));
    const checks = {
      bytes: request.bytes,
      tokens,
      textTokens,
      historyTokens: history,
      underTarget: tokens <= target,
      promptsMissing: entry.prompts.filter((prompt) => !sent.includes(prompt)).length,
      callsMissing: entry.calls.filter((id) => !calls.has(id)).length,
      pairing: pairing(request.turns).slice(0, 5),
      placeholders: request.turns.flatMap((t) => t.results).filter((r) => PLACEHOLDERS.some((marker) => r.text.includes(marker))).map((r) => r.id).slice(0, 5),
      mediaInFile: inFile.size,
      mediaSent: inRequest.size,
      // An image the client re-encoded (resized) counts too: what it sends is not the file's.
      mediaRemovedByClient: [...inFile].filter((key) => !inRequest.has(key)).length,
      historyFirst,
      compactedByClient,
    };
    // A compaction in the file (slim's) takes the calls and images before it into its summary: only the prompts must all stay.
    checks.fileCompacted = [...placedText.matchAll(client.compaction)].length > 0;
    const ok = checks.underTarget && checks.promptsMissing === 0 && (checks.callsMissing === 0 || checks.fileCompacted) && checks.pairing.length === 0 && checks.placeholders.length === 0 && (checks.mediaRemovedByClient === 0 || checks.fileCompacted) && historyFirst.length === 0 && compactedByClient.length === 0;
    return { ...result, outcome: 'sent', ...checks, ok };
  } finally {
    if (opts.keep === undefined) rmSync(root, { recursive: true, force: true });
  }
}

/** `transcript-doctor slim` on one session, written beside the originals under the same relative path (the clients find a session by its name). */
function slim(agent, entry) {
  const out = join(work, 'slimmed', relative(sessions, entry.file));
  mkdirSync(dirname(out), { recursive: true });
  const target = targetOf(entry.window);
  const run = spawnSync(process.execPath, [td, 'slim', entry.file, '--out', out, '--target', String(target), '--reporter', 'json'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 << 20 });
  const line = { agent, phase: 'slim', exit: run.status, target };
  if (run.status !== 0 && run.status !== 1) return { ...line, out: undefined, reason: (run.stderr || run.stdout).split('\n')[0] };
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = undefined;
  }
  const bytes = (path) => (existsSync(path) ? readFileSync(path).length : undefined);
  const sha = (path) => createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 12);
  return { ...line, out: existsSync(out) ? out : undefined, bytesBefore: bytes(entry.file), bytesAfter: bytes(out), changed: existsSync(out) ? sha(out) !== sha(entry.file) : false, report: report?.summary ?? report?.strategies };
}

const pick = (r) => (r === undefined ? undefined : { outcome: r.outcome, bytes: r.bytes, tokens: r.tokens, textTokens: r.textTokens, underTarget: r.underTarget, ok: r.ok, ...(r.reason === undefined ? {} : { reason: r.reason }), ...(r.unchanged ? { unchanged: true } : {}) });
const summaries = [];
for (const agent of agents) if (!Object.values(manifest).some((entry) => (entry.agent ?? agent) === agent)) fail(`the manifest has no ${agent} session`);
for (const [name, entry] of Object.entries(manifest).filter(([key, e]) => agents.includes(e.agent ?? key))) {
  const agent = entry.agent ?? name;
  const before = { session: name, ...(await resume(agent, entry.file, entry, 'before')) };
  console.log(JSON.stringify(before));
  let after;
  let slimmed;
  if (!opts['no-slim']) {
    slimmed = { session: name, ...slim(agent, entry) };
    console.log(JSON.stringify(slimmed));
    // A file slim left byte for byte is resumed as it was: the client sends the same request.
    if (slimmed.out !== undefined && !slimmed.changed) after = { ...before, phase: 'after', unchanged: true };
    else if (slimmed.out !== undefined) {
      after = { session: name, ...(await resume(agent, slimmed.out, entry, 'after')) };
      console.log(JSON.stringify(after));
    }
  }
  summaries.push({ summary: name, estimator: estimatorFor(CLIENTS[agent].wire), target: before.target, window: entry.window, before: pick(before), slim: slimmed === undefined ? undefined : { exit: slimmed.exit, bytesAfter: slimmed.bytesAfter, reason: slimmed.reason }, after: pick(after) });
}
for (const s of summaries) console.log(JSON.stringify(s));
if (opts.keep === undefined) rmSync(work, { recursive: true, force: true });
