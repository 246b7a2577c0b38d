// A fresh HOME for a client, the session placed where the client looks for it, and the client run
// in it with only 127.0.0.1 configured: Claude Code and Codex, shared by scripts/client-resume.mjs
// and scripts/slim-resume.mjs.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { baseEnv } from './base-env.mjs';
import { UUID } from './history-items.mjs';

export { baseEnv };

const BINARIES = {
  claude: { env: 'CLAUDE_BIN', path: 'node_modules/@anthropic-ai/claude-code-linux-x64/claude' },
  codex: { env: 'CODEX_BIN', path: 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex' },
};
/** The client's native binary (from its env variable or `clients`, the folder npm installed it in), or a reason it is not there. */
export function clientBinary(client, clients) {
  const { env, path } = BINARIES[client];
  const found = process.env[env] ?? (clients === undefined ? undefined : join(resolve(clients), path));
  if (found === undefined || !existsSync(found)) return { missing: `${client} binary not found: set ${env} or pass --clients <dir> (looked for ${found ?? path})` };
  return { path: found };
}

/** Runs a client in its own process group, killed with everything it started after `timeoutMs`. */
export function runClient(command, args, { cwd, env, timeoutMs }) {
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

/** `--keep`: what a run captured and what the client printed, beside its session. */
export function keepRunFiles(root, captured, run) {
  writeFileSync(join(root, 'captured.ndjson'), captured.map((c) => JSON.stringify(c)).join('\n') + '\n');
  writeFileSync(join(root, 'client.stdout.txt'), run.stdout);
  writeFileSync(join(root, 'client.stderr.txt'), run.stderr);
}

export function placeClaude(file, recs, root) {
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
  return { id, cwd, home, session: join(projects, `${id}.jsonl`), env: {
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

export function placeCodex(file, recs, root) {
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
  const session = join(folder, `rollout-${when[0]}-${when[1]}-${when[2]}T${when[3]}-${id}.jsonl`);
  copyFileSync(file, session);
  return { id, cwd, home, codexHome, session, env: {
    ...baseEnv(home),
    CODEX_HOME: codexHome,
    MOCK_KEY: 'capture',
    CODEX_API_KEY: 'capture',
    CODEX_SANDBOX_NETWORK_DISABLED: '1',
    RUST_LOG: 'error',
  } };
}

/** The providers the rollout names: Codex refuses to resume a chat whose provider is not configured. */
export function codexProviders(recs) {
  const ids = recs.map(({ value }) => value.payload?.model_provider).filter((id) => typeof id === 'string' && /^[\w.-]+$/.test(id));
  return [...new Set([...ids, 'mock'])];
}

// Codex refuses to redefine these; the built-in OpenAI provider takes `openai_base_url` instead.
const CODEX_BUILT_IN = new Set(['openai', 'ollama', 'lmstudio', 'oss']);

/** A config.toml whose every provider is the capture server. */
export function codexConfig(port, providers) {
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
