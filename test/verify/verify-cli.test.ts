import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { Session } from '../helpers/session.js';
import { startFakeProvider, type Captured, type Reply } from './llm/fake-provider.js';

const GOOD = 'fixtures/verify/good-answer.jsonl';
const HEARTBEAT = 'fixtures/verify/lazy-heartbeat.jsonl';
const REFUSAL = 'fixtures/verify/refusal.jsonl';
const TRUNCATED = 'fixtures/verify/truncated.jsonl';
const RULES = ['--rules', 'fixtures/verify/workspace/AGENTS.md', '--rules', 'fixtures/verify/workspace/HEARTBEAT.md'];

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** What the judge was asked: the system prompt and the user message, whichever protocol carried them. */
interface JudgeRequest extends Captured {
  system: string;
  user: string;
}

function asked(request: Captured): JudgeRequest {
  const body = request.body as { system?: string; messages: Array<{ role: string; content: string }> };
  const system = body.system ?? body.messages.find((m) => m.role === 'system')!.content;
  return { ...request, system, user: body.messages.find((m) => m.role === 'user')!.content };
}

async function judge(script: (request: Captured, index: number) => Reply) {
  const server = await startFakeProvider(script);
  close = server.close;
  return { url: server.url, get requests() { return server.requests.map(asked); } };
}

async function verify(url: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const cache = mkdtempSync(join(tmpdir(), 'td-verify-cache-'));
  const result = await runCli(['verify', '--base-url', url, '--cache-dir', cache, '-r', 'json', ...args], { env: { ANTHROPIC_API_KEY: 'sk-ant-test-key-000', OPENAI_API_KEY: 'sk-test-openai-000', ...env } });
  return { ...result, report: result.stdout ? JSON.parse(result.stdout) : undefined, cache };
}

const verdictsOf = (report: { files: Array<{ verdicts: Array<{ line: number; verdict: string; category: string | null; feedback: string | null }> }> }) =>
  report.files.flatMap((file) => file.verdicts.map((v) => `${v.line} ${v.verdict}${v.category ? ` ${v.category}` : ''}`));

describe('verify against a local judge', () => {
  it('PASS over the Anthropic protocol; only the final answer is judged, with reasons for the rest', async () => {
    const server = await judge(() => ({ text: 'Goal: met.\nCompleteness: complete.\nRules: fine.\nPASS' }));
    const { code, report, stderr } = await verify(server.url, ['--model', 'anthropic/claude-sonnet-4-5', ...RULES, GOOD]);
    expect(code).toBe(0);
    expect(verdictsOf(report)).toEqual(['3 SKIPPED', '5 SKIPPED', '7 PASS']);
    expect(report.files[0].verdicts[0].feedback).toBe('tool-call turn, not a final answer');
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.path).toBe('/v1/messages');
    expect(request!.headers['x-api-key']).toBe('sk-ant-test-key-000');
    expect(stderr).toBe(`transcript-doctor: sending transcript text to ${server.url} (anthropic/claude-sonnet-4-5); secrets are masked first\n`);
    expect(report.summary).toMatchObject({ pass: 1, fail: 0, error: 0, skipped: 2 });
  });

  it('builds the prompt in the seed’s order, fenced, response last, secrets masked, within budget', async () => {
    const server = await judge(() => ({ text: 'PASS' }));
    await verify(server.url, ['--model', 'anthropic/claude-sonnet-4-5', ...RULES, GOOD]);
    const { system, user } = server.requests[0]!;
    expect(system).toMatch(/Goal achievement[\s\S]*Completeness[\s\S]*Rule compliance/);
    const order = ['## User message', '## User rules', '## Execution metadata', '## Agent response'].map((heading) => user.indexOf(heading));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(user.trim().split('\n').at(-1)).toMatch(/^Judge the agent response above/);
    expect(user).toContain('Done. `--verbose` is now an option');
    expect(user).not.toContain('FAKEFAKEFAKE');
    expect(user).toMatch(/\[redacted [^\]]+\]/);
    expect(user).not.toContain('HEARTBEAT.md'); // only heartbeat runs get HEARTBEAT.md
    expect(user).toMatch(/<<<DATA ([0-9a-f]{16}) agent_response>>>[\s\S]*<<<END \1>>>/);
    expect(system.length + user.length).toBeLessThanOrEqual(32_000);
  });

  it('each FAIL category over the OpenAI protocol, exit 1', async () => {
    for (const category of ['goal_missed', 'incomplete', 'rule_violation', 'tone_mismatch', 'refusal']) {
      const server = await judge(() => ({ text: `Reasoning.\nFAIL [${category}]: do better` }));
      const { code, report } = await verify(server.url, ['--model', 'openai/gpt-4.1', '--all', REFUSAL]);
      expect(code).toBe(1);
      expect(verdictsOf(report)).toEqual([`3 FAIL ${category}`]);
      expect(report.files[0].verdicts[0].feedback).toBe('do better');
      expect(server.requests[0]!.path).toBe('/chat/completions');
      expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test-openai-000');
      await close!();
      close = undefined;
    }
  });

  it('a malformed verdict is an ERROR, fail-open unless --fail-closed', async () => {
    const server = await judge(() => ({ text: 'Looks fine to me!' }));
    const open = await verify(server.url, ['--model', 'openai/gpt-4.1', '--all', REFUSAL]);
    expect(open.code).toBe(0);
    expect(verdictsOf(open.report)).toEqual(['3 ERROR']);
    const closed = await verify(server.url, ['--model', 'openai/gpt-4.1', '--all', '--fail-closed', REFUSAL]);
    expect(closed.code).toBe(2);
  });

  it('500s are retried, then an ERROR', async () => {
    const server = await judge(() => ({ status: 500, raw: '{"error":"boom"}' }));
    const { code, report } = await verify(server.url, ['--model', 'openai/gpt-4.1', '--all', '--retries', '2', REFUSAL]);
    expect(code).toBe(0);
    expect(verdictsOf(report)).toEqual(['3 ERROR']);
    expect(server.requests).toHaveLength(3);
  });

  it('429 with Retry-After, then success', async () => {
    const server = await judge((_, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' }, raw: '{}' } : { text: 'PASS' }));
    const started = Date.now();
    const { report } = await verify(server.url, ['--model', 'openai/gpt-4.1', '--all', REFUSAL]);
    expect(verdictsOf(report)).toEqual(['3 PASS']);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('a judge that never answers times out into an ERROR', async () => {
    const server = await judge(() => ({ hang: true as const }));
    const { code, report } = await verify(server.url, ['--model', 'openai/gpt-4.1', '--all', '--timeout', '1', '--retries', '0', REFUSAL]);
    expect(code).toBe(0);
    expect(report.files[0].verdicts[0]).toMatchObject({ verdict: 'ERROR' });
    expect(report.files[0].verdicts[0].feedback).toMatch(/no reply within 1000 ms/);
  });

  it('keyword mode by default: truncated "Here you go" is judged, the refusal is not; delivery mirror and messaging sends are skipped', async () => {
    const server = await judge(() => ({ text: 'FAIL [incomplete]: the list stops at item 3' }));
    const { report } = await verify(server.url, ['--model', 'openai/gpt-4.1', TRUNCATED, REFUSAL]);
    expect(report.files.map((f: { verdicts: Array<{ line: number; verdict: string; feedback: string }> }) => f.verdicts.map((v) => `${v.line} ${v.verdict} ${v.verdict === 'SKIPPED' ? v.feedback : ''}`.trim()))).toEqual([
      ['3 FAIL', '5 SKIPPED tool-call turn, not a final answer', '7 SKIPPED already delivered through message in this turn', '8 SKIPPED transcript-only entry (delivery mirror or injected line)'],
      ['3 SKIPPED no trigger keyword (use --all to judge every answer)'],
    ]);
    expect(server.requests[0]!.user).toMatch(/stop reason: truncated/);
  });

  it('heartbeat runs are skipped unless --heartbeat, which judges them with HEARTBEAT.md', async () => {
    const server = await judge(() => ({ text: 'HEARTBEAT.md lists a nightly build check that was not done.\nFAIL [goal_missed]: check the nightly build' }));
    const skipped = await verify(server.url, ['--model', 'openai/gpt-4.1', ...RULES, HEARTBEAT]);
    expect(verdictsOf(skipped.report)).toEqual(['3 SKIPPED']);
    expect(server.requests).toHaveLength(0);
    const judged = await verify(server.url, ['--model', 'openai/gpt-4.1', '--heartbeat', ...RULES, HEARTBEAT]);
    expect(judged.code).toBe(1);
    expect(verdictsOf(judged.report)).toEqual(['3 FAIL goal_missed']);
    expect(server.requests[0]!.user).toContain('nightly build of the demo project');
    expect(server.requests[0]!.user).toContain('this is a heartbeat run');
  });

  it('caches verdicts: a rerun sends nothing; errors are never cached', async () => {
    const server = await judge(() => ({ text: 'PASS' }));
    const first = await verify(server.url, ['--model', 'openai/gpt-4.1', '--all', REFUSAL]);
    const cacheDir = first.cache;
    const again = await runCli(['verify', '--base-url', server.url, '--cache-dir', cacheDir, '-r', 'json', '--model', 'openai/gpt-4.1', '--all', REFUSAL], { env: { OPENAI_API_KEY: 'k' } });
    expect(server.requests).toHaveLength(1);
    expect(JSON.parse(again.stdout).files[0].verdicts[0]).toMatchObject({ verdict: 'PASS', cached: true });
    expect(again.stderr).toBe('');
  });

  it('a missing key is a clear error before any request', async () => {
    const server = await judge(() => ({ text: 'PASS' }));
    const result = await runCli(['verify', '--model', 'anthropic/claude-sonnet-4-5', GOOD], { env: { ANTHROPIC_API_KEY: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^transcript-doctor: .*ANTHROPIC_API_KEY/);
    expect(server.requests).toHaveLength(0);
  });

  it('reads model and switches from the OpenClaw config; flags win', async () => {
    const server = await judge(() => ({ text: 'PASS' }));
    const { writeFileSync } = await import('node:fs');
    const config = join(mkdtempSync(join(tmpdir(), 'td-config-')), 'openclaw.json');
    writeFileSync(config, '{\n  // OpenClaw config\n  "agents": { "defaults": { "verifier": { "model": "openai/gpt-4.1-mini", "verifyAll": true, } } }\n}');
    const { report } = await verify(server.url, ['--config', config, REFUSAL]);
    expect(report.files[0].verdicts[0]).toMatchObject({ verdict: 'PASS', model: 'openai/gpt-4.1-mini' });
    const bad = join(mkdtempSync(join(tmpdir(), 'td-config-')), 'openclaw.json');
    writeFileSync(bad, '{"agents":{"defaults":{"verifier":{"verifyAll":"yes"}}}}');
    const refused = await runCli(['verify', '--config', bad, '--model', 'openai/x', REFUSAL], { env: { OPENAI_API_KEY: 'k' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('agents.defaults.verifier.verifyAll must be true or false');
  });

  it('sends none of the published secret shapes, wherever they stand in the transcript', async () => {
    const catalogue: string = '../../harden/lib/secret-shapes.mjs';
    const { SHAPES, leaked } = (await import(catalogue)) as { SHAPES: Array<[string, () => { text: string; secrets: string[] }]>; leaked: (sent: string, secret: string) => boolean };
    const cases = SHAPES.map(([name, make], i) => ({ name, marker: `(shape ${i})`, ...make() }));
    const places: string[][] = [[], [], [], [], []];
    cases.forEach((shape, i) => places[i % 5]!.push(`${shape.marker} ${shape.text}`));
    const [user1, answer1, user2, answer2, rules] = places.map((lines) => lines.join('\n'));
    const dir = mkdtempSync(join(tmpdir(), 'td-shapes-'));
    writeFileSync(join(dir, 's.jsonl'), new Session().user(user1).reply(answer1).user(user2).reply(answer2).jsonl());
    writeFileSync(join(dir, 'AGENTS.md'), rules!);
    const server = await judge(() => ({ text: 'PASS' }));
    const { code } = await verify(server.url, ['--model', 'openai/gpt-4.1', '--all', '--rules', join(dir, 'AGENTS.md'), join(dir, 's.jsonl')]);
    expect(code).toBe(0);
    const sent = server.requests.map((request) => request.user).join('\n');
    expect(cases.filter((shape) => !sent.includes(shape.marker)).map((shape) => shape.name)).toEqual([]);
    expect(cases.filter((shape) => shape.secrets.some((secret) => leaked(sent, secret))).map((shape) => shape.name)).toEqual([]);
  });

  it('sends a 1.2M-character user message as its head and tail within the prompt budget', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-huge-'));
    const message = `Please read this log.\n${'2026-05-04 INFO batch done\n'.repeat(46_200)}Why did it stop?`;
    expect(message.length).toBeGreaterThan(1_200_000);
    writeFileSync(join(dir, 's.jsonl'), new Session().user(message).reply('It ran out of memory. Done.').jsonl());
    const server = await judge(() => ({ text: 'Reasoning... PASS' }));
    const { report } = await verify(server.url, ['--model', 'anthropic/claude-sonnet-4-5', join(dir, 's.jsonl')]);
    expect(verdictsOf(report)).toEqual(['3 PASS']);
    const { system, user } = server.requests[0]!;
    expect(system.length + user.length).toBeLessThanOrEqual(32_000);
    expect(user).toContain('Please read this log.');
    expect(user).toContain('Why did it stop?');
    expect(user).toMatch(/\[… \d+ characters of the user message left out here …\]/);
  });
});
