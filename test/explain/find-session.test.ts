import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerText } from '../helpers/provider-text.js';
import { runCli } from '../cli/run-cli.js';
import { call, Session } from '../helpers/session.js';
import { FakeHome, healthy, toolId, type Planted } from './fake-home.js';

// Broken sessions hidden among many healthy ones in the standard folders of a fake home; explain,
// given only the provider's text, must name the file and the line.

let home: FakeHome;
const planted: Record<string, Planted> = {};

function json(stdout: string) {
  return JSON.parse(stdout) as {
    error: { ref: string; ids: string[] };
    search: { method: string; files: number; considered: number; searched: string[] };
    session?: { path: string; line: number; pointer: string; rule: string; fix: string; docs: { command: string; file: string } };
  };
}

beforeAll(() => {
  home = new FakeHome();
  home.fill(120, 'older');

  const missing = toolId('missing');
  planted.missing = {
    id: missing,
    line: 3,
    file: home.write(home.openclaw, 'b1c2-missing.jsonl', new Session().user('run the tests').calls(call(missing, 'exec')).user('are you still there?').reply('Yes.').jsonl()),
  };
  const orphan = toolId('orphan');
  planted.orphan = { id: orphan, line: 6, file: home.write(home.pi, '2026-11-02_orphan.jsonl', healthy('o', 1).raw('').lines.slice(0, 4).join('\n') + '\n' + new Session(false).user('go on').result(orphan).jsonl()) };
  planted.responses = {
    id: 'call_Rb7mKq2XwT9nLc4VdZ8sPa1Y',
    line: 3,
    file: home.write(home.pi, '2026-11-02_responses.jsonl', new Session().user('list files').calls(call('call_Rb7mKq2XwT9nLc4VdZ8sPa1Y|fc_68e2b0c1d4f5a6b7c8d9e0f1a2b3c4d5', 'ls')).user('well?').reply('Here.').jsonl()),
  };
  const displaced = toolId('displaced');
  planted.displaced = {
    id: displaced,
    line: 5,
    file: home.write(home.openclaw, 'c3d4-displaced.jsonl', new Session().user('read it').calls(call(displaced)).user('hurry up').result(displaced).reply('Read.').jsonl()),
  };
  // The same id in a newer session that is healthy: found by the byte search, ruled out by the scan.
  home.write(home.pi, '2026-11-03_mentions.jsonl', healthy('mention', 2).user(`what happened to ${missing}?`).reply('It was lost.').jsonl());
  home.fill(120, 'newer');
  planted.claude = { id: 'toolu_01NeverAnsweredCCCCCCCC', line: 2, file: home.copyFixture('missing-tool-result.jsonl') };
});

afterAll(() => rmSync(home.home, { recursive: true, force: true }));

describe('explain finds the session by the ids in the error', () => {
  it('an unanswered call (Anthropic, pasted as the JSON body): the file, line and pointer of the call', async () => {
    const { id, file, line } = planted.missing!;
    const body = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: providerText('anthropic', 'missing-tool-result', { message: 1, ids: [id] }).replace('Anthropic: ', '') }, request_id: 'req_011CX' });
    const result = await runCli(['explain', body, '--reporter', 'json'], { env: home.env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = json(result.stdout);
    expect(out.session).toMatchObject({ path: file, line, pointer: '/message/content/1', rule: 'missing-tool-result', fix: `transcript-doctor repair --in-place ${file}` });
    expect(out.search).toMatchObject({ method: 'ids', files: 246, considered: 2 });
    expect(out.search.searched).toContain(join(home.home, '.openclaw', 'agents', 'main', 'sessions'));
  });

  it('the same call as OpenAI Responses names it', async () => {
    const { id, file, line } = planted.missing!;
    const result = await runCli(['explain', `Error: 400 No tool output found for function call ${id}.`, '-r', 'json'], { env: home.env });
    expect(result.code).toBe(0);
    expect(json(result.stdout).session).toMatchObject({ path: file, line, rule: 'missing-tool-result' });
  });

  it('an orphan result (OpenAI Responses)', async () => {
    const { id, file, line } = planted.orphan!;
    const result = await runCli(['explain', `No tool call found for function call output with call_id ${id}.`, '-r', 'json'], { env: home.env });
    expect(result.code).toBe(0);
    expect(json(result.stdout).session).toMatchObject({ path: file, line, rule: 'orphan-tool-result' });
  });

  it('a call pi stores as call_…|fc_…, named by its call_id alone (OpenAI Responses)', async () => {
    const { id, file, line } = planted.responses!;
    const result = await runCli(['explain', `{"error":{"message":"No tool output found for function call ${id}.","type":"invalid_request_error","param":"input","code":null}}`, '-r', 'json'], { env: home.env });
    expect(result.code).toBe(0);
    expect(json(result.stdout).session).toMatchObject({ path: file, line, rule: 'missing-tool-result' });
  });

  it('a displaced result (Anthropic orphan wording, message index of the result)', async () => {
    const { id, file, line } = planted.displaced!;
    const text = `messages.3.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    const result = await runCli(['explain', text, '-r', 'json'], { env: home.env });
    expect(result.code).toBe(0);
    expect(json(result.stdout).session).toMatchObject({ path: file, line, rule: 'displaced-tool-result' });
  });

  it('a Claude Code session under ~/.claude/projects', async () => {
    const { id, file } = planted.claude!;
    const expected = readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(`"id":"${id}"`)) + 1;
    expect(expected).toBe(planted.claude!.line);
    const result = await runCli(['explain', `Expected toolResult blocks at messages.1.content for the following Ids: ${id}`, '-r', 'json'], { env: home.env });
    expect(result.code).toBe(0);
    expect(json(result.stdout).session).toMatchObject({ path: file, line: expected, rule: 'missing-tool-result' });
  });

  it('prints, for people, the provider, the meaning, the place, the rule with its docs and the fix', async () => {
    const { id, file, line } = planted.missing!;
    const result = await runCli(['explain', `messages.1: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${id}`], { env: home.env });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`Anthropic (message 1, ${id}): a tool call in the session has no tool result in the message right after it, so every later request is rejected.`);
    expect(result.stdout).toContain(`  session  ${file}  (pi)\n  line     ${line}  at /message/content/1\n`);
    expect(result.stdout).toMatch(/ {2}rule {5}missing-tool-result {2}\(transcript-doctor rules missing-tool-result · .*docs\/rules\/missing-tool-result\.md\)/);
    expect(result.stdout).toContain(`  fix      transcript-doctor repair --in-place ${file}\n`);
  });

  it('only looks in the paths given, when given', async () => {
    const { id } = planted.missing!;
    const result = await runCli(['explain', `No tool output found for function call ${id}.`, home.pi], { env: home.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`No session matches: 1 file contains ${id}, but none has a finding of missing-tool-result for it (already repaired?).`);
    expect(result.stdout).toContain(`Looked in ${home.pi} (123 session files).`);
  });

  it('exits 1 and says where it looked when no session holds the id', async () => {
    const result = await runCli(['explain', `No tool output found for function call call_NotInAnySession0000000.`], { env: home.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('No session matches: no session file contains call_NotInAnySession0000000.');
    expect(result.stdout).toContain(`Looked in ${join(home.home, '.openclaw', 'agents', 'main', 'sessions')}, ${join(home.home, '.pi', 'agent', 'sessions')}`);
  });
});

describe('explain ranks recent sessions for an error with no id', () => {
  let ranked: FakeHome;
  const files: string[] = [];
  beforeAll(() => {
    ranked = new FakeHome();
    ranked.fill(20, 'old');
    // Two sessions reuse a call id, at different message indices; a healthier one is newest.
    const twice = (id: string, before: number) => {
      const session = new Session().user('start');
      for (let round = 0; round < before; round++) session.calls(call(toolId(`${id}/${round}`))).result(toolId(`${id}/${round}`));
      return session.calls(call(id)).result(id).calls(call(id)).result(id).reply('Done.').jsonl();
    };
    files.push(ranked.write(ranked.openclaw, 'dup-at-line-5.jsonl', twice(toolId('a'), 0)));
    files.push(ranked.write(ranked.openclaw, 'dup-at-line-7.jsonl', twice(toolId('b'), 1)));
    ranked.fill(5, 'new');
  });
  afterAll(() => rmSync(ranked.home, { recursive: true, force: true }));

  it('the message index picks the session among those with the same rule', async () => {
    const older = await runCli(['explain', 'messages.3.content.1: `tool_use` ids must be unique', '-r', 'json'], { env: ranked.env });
    expect(older.code).toBe(0);
    expect(json(older.stdout)).toMatchObject({ search: { method: 'recent' }, session: { path: files[0], line: 5, rule: 'duplicate-tool-call-id' } });
    const newer = await runCli(['explain', 'messages.5.content.1: `tool_use` ids must be unique', '-r', 'json'], { env: ranked.env });
    expect(json(newer.stdout).session).toMatchObject({ path: files[1], line: 7 });
    const text = await runCli(['explain', 'messages.5.content.1: `tool_use` ids must be unique'], { env: ranked.env });
    expect(text.stdout).toContain(`  session  ${files[1]}  (pi)\n  line     7  at /message/content/1\n`);
    expect(text.stdout).toMatch(/^The error names no id: this is the best of the \d+ newest sessions scanned \(same problem, then the same message index, then the newest\)\.$/m);
  });

  it('without a matching index, the newest session with one of the rules comes first', async () => {
    const counted = await runCli(['explain', 'Not the same number of function calls and responses', '-r', 'json'], { env: ranked.env });
    expect(counted.code).toBe(0);
    expect(json(counted.stdout).session).toMatchObject({ path: files[1], rule: 'duplicate-tool-call-id' });
    const elsewhere = await runCli(['explain', 'messages.40.content.1: `tool_use` ids must be unique', '-r', 'json'], { env: ranked.env });
    expect(json(elsewhere.stdout).session).toMatchObject({ path: files[1], rule: 'duplicate-tool-call-id' });
  });

  it('exits 1 when none of the recent sessions has the rule', async () => {
    const result = await runCli(['explain', 'Assistant message must have either content or tool_calls, but not none.'], { env: ranked.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('No session matches: none of the 27 newest sessions has a finding of empty-error-turn.');
  });
});
