import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { SAMPLES } from './samples.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, Session } from '../helpers/session.js';

// Usage errors and unknown text exit 2 with one line on standard error and nothing on standard output.

const KNOWN = SAMPLES['resp-call-needs-output']!;

describe('explain usage errors', () => {
  it.each([
    ['unknown wording', ['explain', 'Something went wrong, please try again later.', 'fixtures/demo'], /^transcript-doctor: not a provider error explain knows \(recognised no provider, error body or tool call id\); transcript-doctor rules lists what it checks$/],
    ['unknown wording in a known body', ['explain', '{"type":"error","error":{"type":"invalid_request_error","message":"messages.3: something new"}}'], /\(recognised an Anthropic error body, message index 3\)/],
    ['an empty error text', ['explain', '', 'fixtures/demo'], /^transcript-doctor: explain needs the error text/],
    ['- among the paths', ['explain', KNOWN, '-'], /^transcript-doctor: explain reads session files, not standard input/],
    ['a path that is not there', ['explain', KNOWN, 'no/such/folder'], /^transcript-doctor: no\/such\/folder: no such file or directory$/],
  ])('%s', async (_, args, expected) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(expected);
  });

  it.each([
    ['no error text', ['explain'], /missing required argument 'error'/],
    ['an unknown reporter', ['explain', KNOWN, '--reporter', 'sarif'], /argument 'sarif' is invalid/],
  ])('%s: commander says so, exit 2', async (_, args, expected) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(expected);
  });

  it('reads the error text from standard input with -', async () => {
    const result = await runCli(['explain', '-', 'fixtures/demo', '-r', 'json'], { input: `time=… level=error msg="${SAMPLES['anth-tool-result-orphan']!.replace(/"/g, '\\"')}"\n` });
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { ref: 'anth-tool-result-orphan', messageIndex: 244 } });
  });

  it('an empty standard input is a usage error', async () => {
    const result = await runCli(['explain', '-', 'fixtures/demo'], { input: '' });
    expect(result).toMatchObject({ code: 2, stdout: '' });
  });

  it("a provider contract error is looked for as that provider judges the session: OpenAI's 40-character id limit", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-explain-contract-'));
    const long = `toolu_01${'L'.repeat(49)}`;
    writeFileSync(join(dir, 'session.jsonl'), new Session().user().calls(call(long)).result(long).reply().jsonl());
    const result = await runCli(['explain', SAMPLES['oai-chat-tool-call-id-maxlen']!, dir, '-r', 'json']);
    expect(result.code).toBe(0);
    const found = JSON.parse(result.stdout);
    expect(found).toMatchObject({ error: { ref: 'oai-chat-tool-call-id-maxlen' }, session: { rule: 'tool-call-id-format', line: 3 } });
    expect(found.session.fix).toBe(`transcript-doctor repair --in-place --provider openai-chat ${join(dir, 'session.jsonl')}`);
    const fixed = await runCli(['explain', SAMPLES['oai-chat-tool-call-id-maxlen']!, dir, '--fix']);
    expect(fixed.code).toBe(0);
    expect((await runCli(['scan', '--provider', 'openai-chat', join(dir, 'session.jsonl')])).code).toBe(0);
  });

  it('--help describes the command in the style of the others', async () => {
    const result = await runCli(['explain', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: transcript-doctor explain \[options\] <error> \[paths\.\.\.\]/);
    for (const part of ['--fix', '--reporter <name>', 'Exit codes: 0 the session was found', 'Examples:']) expect(result.stdout).toContain(part);
  });
});
