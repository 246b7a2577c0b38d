// The six clients slim-resume runs, each as: where its binary is, where it keeps the session
// (placed in a fresh HOME), how it is told to resume it against the capture server on 127.0.0.1,
// the wire format of its request, and how the server answers it. Claude Code and Codex take their
// homes from client-homes.mjs (shared with client-resume.mjs); Gemini CLI, Qwen Code, Copilot CLI
// and pi are the packages test/interop installs. `compaction` matches the record each writes when
// it compacts (or truncates) a history itself; `replayed` is the part of a record the client sends
// (so an image in a copy it keeps for itself, Claude Code's toolUseResult, is not counted as sent). Nothing but 127.0.0.1 is configured: telemetry,
// updates and any proxy-aware request are sent nowhere.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { baseEnv, clientBinary, codexConfig, codexProviders, placeClaude, placeCodex } from './client-homes.mjs';
import { records } from './history-items.mjs';

export const PROMPT = 'continue';

const interop = createRequire(new URL('../../test/interop/package.json', import.meta.url));
const INTEROP_MODULES = new URL('../../test/interop/node_modules/', import.meta.url).pathname;

/** A bin of a test/interop package, or why it is not there. */
function interopBin(pkg, bin) {
  try {
    const root = join(INTEROP_MODULES, pkg);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin];
    if (relative !== undefined && existsSync(join(root, relative))) return { path: process.execPath, prefix: [join(root, relative)] };
  } catch {
    // not installed: said below
  }
  return { missing: `${pkg} is not installed in test/interop (node scripts/test-deps.mjs installs it)` };
}

/** Copilot's platform package holds the binary (a Node SEA); the npm package is only its loader. */
function copilotBin() {
  for (const name of [`@github/copilot-${process.platform}-${process.arch}`, `@github/copilot-linuxmusl-${process.arch}`]) {
    try {
      const path = interop.resolve(name);
      if (existsSync(path)) return { path, prefix: [] };
    } catch {
      // the next one
    }
  }
  return { missing: '@github/copilot has no binary for this platform in test/interop' };
}

const nowhere = 'http://127.0.0.1:9';
const noProxy = { HTTP_PROXY: nowhere, HTTPS_PROXY: nowhere, ALL_PROXY: nowhere, NO_PROXY: '127.0.0.1,localhost', NODE_USE_ENV_PROXY: '1' };

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(events.join(''));
}

const refuse = (req, body, res) => json(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'capture server: request recorded' } });

/** A one-message Responses stream (Codex retries a 400). */
function responsesAnswer(req, body, res) {
  if (!req.url.endsWith('/responses')) return refuse(req, body, res);
  const events = [
    { type: 'response.created', response: { id: 'resp_1' } },
    { type: 'response.output_item.done', output_index: 0, item: { type: 'message', role: 'assistant', id: 'msg_1', content: [{ type: 'output_text', text: 'ok' }] } },
    { type: 'response.completed', response: { id: 'resp_1', usage: { input_tokens: 0, input_tokens_details: null, output_tokens: 0, output_tokens_details: null, total_tokens: 0 } } },
  ];
  sse(res, events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`));
}

/** A one-part Gemini answer, streamed or not (Gemini CLI retries errors with backoff). */
function geminiAnswer(req, body, res) {
  const answer = { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } };
  if (req.url.includes(':countTokens')) return json(res, 200, { totalTokens: 1 });
  if (req.url.includes(':streamGenerateContent')) return sse(res, [`data: ${JSON.stringify(answer)}\n\n`]);
  return json(res, 200, answer);
}

/** A one-message Chat Completions answer, streamed or not. */
function chatAnswer(req, body, res) {
  if (!req.url.endsWith('/chat/completions')) return refuse(req, body, res);
  const message = { role: 'assistant', content: 'ok' };
  if (body?.stream !== true) return json(res, 200, { id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: body?.model ?? 'm', choices: [{ index: 0, message, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  const chunk = (delta, finish) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  sse(res, [chunk(message, null), chunk({}, 'stop'), 'data: [DONE]\n\n']);
}

function fresh(root) {
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  for (const dir of [home, cwd, join(home, 'tmp')]) mkdirSync(dir, { recursive: true });
  return { home, cwd };
}

function copyTo(file, target, edit = (text) => text) {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, edit(readFileSync(file, 'utf8')));
  return target;
}

export const CLIENTS = {
  claude: {
    replayed: (r) => ((r.type === 'user' || r.type === 'assistant') && r.isSidechain !== true ? r.message : undefined),
    wire: 'anthropic',
    compaction: /"subtype":"(?:compact_boundary|microcompact_boundary)"/g,
    binary: (opts) => ({ ...clientBinary('claude', opts.clients), prefix: [] }),
    respond: refuse,
    place(file, root) {
      const placed = placeClaude(file, records(readFileSync(file, 'utf8')), root);
      return { ...placed, args: ['-p', '--resume', placed.id, PROMPT], env: (port) => ({ ...placed.env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` }) };
    },
  },
  codex: {
    replayed: (r) => (r.type === 'response_item' ? r.payload : r.type === 'compacted' ? r.payload?.replacement_history : undefined),
    wire: 'responses',
    compaction: /"type":"(?:compacted|context_compacted)"/g,
    binary: (opts) => ({ ...clientBinary('codex', opts.clients), prefix: [] }),
    respond: responsesAnswer,
    place(file, root) {
      const recs = records(readFileSync(file, 'utf8'));
      const placed = placeCodex(file, recs, root);
      return {
        ...placed,
        args: ['exec', '--skip-git-repo-check', 'resume', placed.id, PROMPT],
        env: (port) => {
          writeFileSync(join(placed.codexHome, 'config.toml'), codexConfig(port, codexProviders(recs)));
          return placed.env;
        },
      };
    },
  },
  gemini: {
    replayed: (r) => (typeof r.id === 'string' ? r : r.$set?.messages),
    wire: 'gemini',
    // It keeps no record of a compression (GC #20803): that shows only in its requests. Slim's shows as its summary turn.
    compaction: /"id":"compaction:[^"]*:summary"/g,
    // Its model router first asks a small model to score the prompt, with the last few turns: not the conversation's request.
    auxiliary: (body) => JSON.stringify(body?.systemInstruction ?? '').includes('You are a specialized Task Routing AI'),
    binary: () => interopBin('@google/gemini-cli', 'gemini'),
    respond: geminiAnswer,
    place(file, root) {
      const { home, cwd } = fresh(root);
      const project = join(home, '.gemini', 'tmp', basename(cwd));
      const session = copyTo(file, join(project, 'chats', basename(file)));
      // The project's slug is claimed by this marker, so the client looks in this folder.
      writeFileSync(join(project, '.project_root'), cwd);
      writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, telemetry: { enabled: false }, privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }));
      return { cwd, home, session, args: ['--resume', 'latest', '-p', PROMPT], env: (port) => ({ ...baseEnv(home), ...noProxy, GEMINI_API_KEY: 'capture', GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`, GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_TELEMETRY_ENABLED: 'false' }) };
    },
  },
  qwen: {
    replayed: (r) => r.message ?? r.systemPayload?.compressedHistory,
    wire: 'chat',
    compaction: /"subtype":"chat_compression"/g,
    binary: () => interopBin('@qwen-code/qwen-code', 'qwen'),
    respond: chatAnswer,
    place(file, root) {
      const { home, cwd } = fresh(root);
      const first = JSON.parse(readFileSync(file, 'utf8').slice(0, readFileSync(file, 'utf8').indexOf('\n')));
      // Qwen Code resumes only a session recorded in the folder it runs in: the records name ours.
      const session = copyTo(file, join(home, '.qwen', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), 'chats', `${first.sessionId}.jsonl`), (text) => text.replaceAll(JSON.stringify(first.cwd), JSON.stringify(cwd)));
      writeFileSync(join(home, '.qwen', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'openai' } }, model: { name: 'qwen3-coder-plus' }, telemetry: { enabled: false }, privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true } }));
      return { cwd, home, session, id: first.sessionId, args: ['--resume', first.sessionId, '--auth-type', 'openai', PROMPT], env: (port) => ({ ...baseEnv(home), ...noProxy, OPENAI_API_KEY: 'capture', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MODEL: 'qwen3-coder-plus' }) };
    },
  },
  copilot: {
    replayed: (r) => (r.type === 'tool.execution_complete' ? r.data?.result?.content : r.type === 'user.message' || r.type === 'assistant.message' ? r.data : undefined),
    wire: 'chat',
    compaction: /"type":"session\.(?:compaction_start|truncation)"/g,
    binary: () => copilotBin(),
    respond: (req, body, res) => json(res, 400, { error: { message: 'capture server: request recorded', type: 'invalid_request_error' } }),
    place(file, root, entry) {
      const { home, cwd } = fresh(root);
      const id = basename(dirname(file));
      const session = copyTo(file, join(home, '.copilot', 'session-state', id, 'events.jsonl'));
      // Where the binary unpacks its app (235 MB): once, shared by every run.
      const packages = join(tmpdir(), 'td-slim-resume-copilot-packages');
      return {
        cwd, home, session, id, args: [`--resume=${id}`, '-p', PROMPT],
        env: (port) => ({
          ...baseEnv(home), ...noProxy,
          XDG_CACHE_HOME: join(home, '.cache'), XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.local', 'state'),
          COPILOT_HOME: join(home, '.copilot'), COPILOT_PKG_CACHE_HOME: packages, COPILOT_OFFLINE: 'true', COPILOT_AUTO_UPDATE: 'false', COPILOT_OTEL_ENABLED: 'false',
          COPILOT_PROVIDER_TYPE: 'openai', COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${port}/v1`, COPILOT_PROVIDER_API_KEY: 'capture', COPILOT_MODEL: 'gpt-4.1',
          // Offline it knows no model's limits and takes 64,000 tokens: the session's model's window instead.
          COPILOT_PROVIDER_MAX_PROMPT_TOKENS: String(entry.window),
        }),
      };
    },
  },
  pi: {
    replayed: (r) => (r.type === 'message' ? r.message : undefined),
    wire: 'anthropic',
    compaction: /"type":"compaction"/g,
    binary: () => interopBin('@mariozechner/pi-coding-agent', 'pi'),
    respond: refuse,
    place(file, root, entry) {
      const { home, cwd } = fresh(root);
      const agent = join(home, '.pi', 'agent');
      // pi refuses a session whose working directory is gone: the header names ours.
      const header = (text) => {
        const end = text.indexOf('\n');
        return JSON.stringify({ ...JSON.parse(text.slice(0, end)), cwd }) + text.slice(end);
      };
      const session = copyTo(file, join(agent, 'sessions', `--${cwd.replace(/^\//, '').replace(/[/\\:]/g, '-')}--`, basename(file)), header);
      return {
        cwd, home, session, args: ['--session', session, '--provider', 'capture', '--model', entry.model, '-p', PROMPT],
        env: (port) => {
          const model = { id: entry.model, name: entry.model, contextWindow: entry.window, maxTokens: 8192, input: ['text', 'image'], reasoning: false, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
          writeFileSync(join(agent, 'models.json'), JSON.stringify({ providers: { capture: { baseUrl: `http://127.0.0.1:${port}`, api: 'anthropic-messages', apiKey: 'capture', models: [model] } } }));
          return { ...baseEnv(home), ...noProxy, PI_CODING_AGENT_DIR: agent, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' };
        },
      };
    },
  },
};
