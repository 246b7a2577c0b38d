import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'gemini-cli');
const SESSION = 'session-2026-03-09T14-00-3f9c2a71.jsonl';
const COUNT = 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

/** A home whose Gemini CLI keeps one session in a project's chats folder, as the client files it. */
function geminiHome(fixture: string): { home: string; file: string } {
  const home = mkdtempSync(join(tmpdir(), 'td-gemini-home-'));
  const chats = join(home, '.gemini', 'tmp', 'project', 'chats');
  mkdirSync(chats, { recursive: true });
  copyFileSync(join(DIR, fixture), join(chats, SESSION));
  return { home, file: join(chats, SESSION) };
}

describe('Gemini CLI on the command line', () => {
  it('scan with no paths searches ~/.gemini/tmp, and a session the client would send with unequal counts exits 1 with Gemini’s words', async () => {
    const { home } = geminiHome('missing-tool-result.jsonl');
    const result = await runCli(['scan', '-r', 'json'], { env: { HOME: home, GEMINI_CLI_HOME: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Searching ${join(home, '.gemini', 'tmp')}`);
    const report = JSON.parse(result.stdout);
    expect(report.files.map((file: { format: string }) => file.format)).toEqual(['gemini-cli']);
    expect(report.files[0].findings.map((f: { line: number; rule: string; providerError: string }) => `${f.line} ${f.rule} ${f.providerError}`)).toEqual([`7 kept-history-pairing Gemini: ${COUNT}`, '7 unanswered-final-turn undefined']);
  });

  it('follows $GEMINI_CLI_HOME, and a healthy session exits 0', async () => {
    const { home } = geminiHome('healthy.jsonl');
    const result = await runCli(['scan', '-r', 'json'], { env: { HOME: mkdtempSync(join(tmpdir(), 'td-home-')), GEMINI_CLI_HOME: home } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).files).toHaveLength(1);
  });

  it('--agent gemini-cli reads a file no line of which tells its format', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-gemini-')), 'log.jsonl');
    // Only patches and a torn message: nothing unmistakable, and not where Gemini CLI keeps its files.
    writeFileSync(file, '{"$set":{"lastUpdated":"2026-03-09T14:00:00.000Z"},"extra":1}\n{"id":"m1","timestamp":"2026-03-09T14:00:01');
    const detected = JSON.parse((await runCli(['scan', '-r', 'json', file])).stdout);
    expect(detected.files[0].format).toBeNull();
    const named = await runCli(['scan', '-r', 'json', '--agent', 'gemini-cli', file]);
    expect(JSON.parse(named.stdout).files[0]).toMatchObject({ format: 'gemini-cli' });
    expect(JSON.parse(named.stdout).files[0].findings.map((f: { rule: string }) => f.rule)).toEqual(['torn-final-line']);
  });

  it('canonicalize finds nothing to do and exits 0', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'td-gemini-')), 'out.jsonl');
    const result = await runCli(['canonicalize', join(DIR, 'healthy.jsonl'), '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('nothing to canonicalize for gemini-cli: a Gemini CLI session has one shape for each tool call and its result');
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(DIR, 'healthy.jsonl'), 'utf8'));
  });

  it('repair --in-place keeps a backup, leaves nothing to find, and a second run changes nothing', async () => {
    const { file } = geminiHome('duplicate-responses.jsonl');
    const before = readFileSync(file, 'utf8');
    const first = await runCli(['repair', '--in-place', file]);
    expect(first.code).toBe(0);
    const backups = readdirSync(join(file, '..')).filter((name) => name.startsWith(`${SESSION}.bak-`));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(file, '..', backups[0]!), 'utf8')).toBe(before);
    const repaired = readFileSync(file, 'utf8');
    expect(repaired.split('\n').filter((line, i) => line !== before.split('\n')[i])).toHaveLength(1);
    expect((await runCli(['scan', file])).code).toBe(0);
    expect((await runCli(['repair', '--in-place', '--no-backup', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(repaired);
  });

  it('explain goes from Gemini’s error text to the broken session among healthy ones in ~/.gemini', async () => {
    const { home, file } = geminiHome('duplicate-responses.jsonl');
    const chats = join(home, '.gemini', 'tmp', 'project', 'chats');
    for (let i = 0; i < 40; i++) copyFileSync(join(DIR, 'healthy.jsonl'), join(chats, `session-2026-03-0${1 + (i % 8)}T10-00-${String(i).padStart(8, '0')}.jsonl`));
    const result = await runCli(['explain', COUNT], { env: { HOME: home, GEMINI_CLI_HOME: '' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`session  ${file}  (gemini-cli)`);
    expect(result.stdout).toContain('rule     kept-history-pairing');
  });
});
