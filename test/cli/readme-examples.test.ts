import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeSession } from '../helpers/agent-homes.js';
import { call, Session } from '../helpers/session.js';
import { ROOT } from './run-cli.js';

/**
 * Every shell example in the README, in every page under docs/ and in each command's --help, run as written (in a fake home
 * and working folder holding the files the examples name), except those that need the network or
 * are run elsewhere: each of those is named below with the reason, and a reason that matches no
 * example fails the test.
 */
const NOT_RUN: ReadonlyArray<{ example: RegExp; why: string }> = [
  { example: /^npm install && npx transcript-doctor scan fixtures\/demo$/, why: 'installs from the npm registry; .ci/run runs it on a fresh clone' },
  { example: /^npm test$/, why: 'this test is part of it' },
  { example: /^git clone /, why: 'needs the network' },
  { example: /^npm install /, why: 'installs from the npm registry' },
  { example: /^npm pack\b/, why: 'runs the whole build into the working tree; scripts/check-integrations.mjs installs the tarball' },
  { example: /^transcript-doctor --version$/, why: 'needs the global install above; test/cli checks --version' },
  { example: /^transcript-doctor verify --(model|all|heartbeat) /, why: 'asks a model over the network; test/verify runs verify against a local server' },
  { example: /^transcript-doctor slim .*--summarize /, why: 'asks a model over the network; test/slim/summarize-cli.test.ts runs it against a local server' },
  { example: /^mkdir -p \/tmp\/clients /, why: 'installs the agents from the npm registry' },
  { example: /^npm run build$/, why: 'npm test has just built' },
  { example: /^node scripts\/client-resume\.mjs /, why: 'needs the agents installed above' },
  { example: /^node scripts\/slim-resume\.mjs /, why: 'needs the agents installed above' },
];

/** What an example may exit with: the documented 0 and 1, never a usage error (2) or worse. */
const FINE = [0, 1];

const CALL_ID = 'toolu_01GfghBCkxKjjizDvsyeWy5B';
const CODEX_CALL_ID = 'call_sU7XBNcR8nNV7j2rvuzYEHCP';
const SESSION_ID = 'e0b11ca0-75b4-4eef-8961-955e55832882';
const CLAUDE_SESSION_ID = '4f1c0011-7a7e-4c55-9b61-0f4e4a7f2b10';

interface Example {
  command: string;
  /** Where it is written: `README.md:<line>`, `docs/<page>.md:<line>` or `<command> --help`. */
  where: string;
}

const COMMANDS = ['scan', 'repair', 'canonicalize', 'verify', 'merge-reports', 'explain', 'restore', 'hooks', 'hooks install', 'hooks uninstall', 'hook'];

/** The README and every page under docs/, as paths from the repository's root. */
function documentationPages(): string[] {
  const pages = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md'));
  return ['README.md', ...pages.sort().map((name) => `docs/${name}`)];
}

/** Commands of ```sh blocks (one per line, `\` continuations joined) and `$ ` lines of ```console blocks, in every page. */
function documentationExamples(): Example[] {
  return documentationPages().flatMap(pageExamples);
}

function pageExamples(page: string): Example[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const examples: Example[] = [];
  let block: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence !== null) {
      block = block === undefined ? fence[1] : undefined;
      continue;
    }
    if (block !== 'sh' && block !== 'console') continue;
    let command = block === 'console' ? (line.startsWith('$ ') ? line.slice(2) : '') : line;
    if (command.trim() === '' || command.trimStart().startsWith('#')) continue;
    const where = `${page}:${i + 1}`;
    while (command.endsWith('\\') && i + 1 < lines.length) command = `${command.slice(0, -1)} ${lines[++i]!.trim()}`;
    examples.push({ command: command.trim(), where });
  }
  return examples;
}

/** The `$ ` lines under "Examples:" in each command's --help. */
function helpExamples(): Example[] {
  return COMMANDS.flatMap((name) => {
    const help = spawnSync(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), ...name.split(' '), '--help'], { encoding: 'utf8' }).stdout;
    return help
      .split('\n')
      .filter((line) => line.startsWith('  $ '))
      .map((line) => ({ command: line.slice(4).trim(), where: `${name} --help` }));
  });
}

/** A home and a working folder holding every file the examples name, and the command on the PATH. */
function sandbox(): { cwd: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), 'td-readme-'));
  cpSync(template(), root, { recursive: true });
  // A damaged Claude Code session of the working folder's project, for the examples that name it by id or latest.
  claudeSession(join(root, 'home'), join(root, 'work'), CLAUDE_SESSION_ID);
  return sandboxAt(root);
}

let made: string | undefined;

/** The files of a sandbox, made once: the reports merge-reports examples read take a few runs to make. */
function template(): string {
  if (made !== undefined) return made;
  const root = mkdtempSync(join(tmpdir(), 'td-readme-template-'));
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  const bin = join(root, 'bin');
  const fixture = (name: string) => join(ROOT, 'fixtures', name);
  const openclaw = join(home, '.openclaw', 'agents', 'main', 'sessions');
  mkdirSync(openclaw, { recursive: true });
  cpSync(fixture('demo'), openclaw, { recursive: true });
  writeFileSync(join(openclaw, 'b1c2d3e4-0000-4000-8000-000000000001.jsonl'), new Session().user('run the tests').calls(call(CALL_ID, 'exec')).user('are you still there?').reply('Yes.').jsonl());
  const codex = join(home, '.codex', 'sessions', '2026', '11', '01');
  mkdirSync(codex, { recursive: true });
  const rollout = readFileSync(fixture('codex/missing-tool-result.jsonl'), 'utf8').replaceAll('call_Vb7Kq2Lm9Xp4Rt6Ws1Yz3Na8', CODEX_CALL_ID);
  writeFileSync(join(codex, 'rollout-2026-11-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl'), rollout);

  const gemini = join(home, '.gemini', 'tmp', '5f0e3c2a9b1d4e6f', 'chats');
  mkdirSync(gemini, { recursive: true });
  copyFileSync(fixture('gemini-cli/missing-tool-result.jsonl'), join(gemini, 'session-2026-11-01T10-00-3f9c2a71.jsonl'));
  copyFileSync(fixture('gemini-cli/checkpoint-before-refactor.json'), join(gemini, '..', 'checkpoint-before-refactor.json'));

  mkdirSync(join(cwd, 'logs', '2026-11'), { recursive: true });
  mkdirSync(join(cwd, 'workspace'), { recursive: true });
  cpSync(fixture('demo'), join(cwd, 'sessions'), { recursive: true });
  cpSync(fixture('demo'), join(cwd, 'logs', '2026-11'), { recursive: true });
  for (const name of ['session.jsonl', 's.jsonl']) copyFileSync(fixture('pi/missing-tool-result.jsonl'), join(cwd, name));
  copyFileSync(fixture('pi/legacy-shapes.jsonl'), join(cwd, 'legacy.jsonl'));
  copyFileSync(fixture('requests/openai-chat-broken.jsonl'), join(cwd, 'train.jsonl'));
  // Backups an earlier repair --in-place kept, for the restore examples.
  for (const file of [join(openclaw, `${SESSION_ID}.jsonl`), join(cwd, 'session.jsonl')]) copyFileSync(file, `${file}.bak-2026-11-26T10-05-00-123Z`);
  writeFileSync(join(cwd, 'workspace', 'HEARTBEAT.md'), 'Answer HEARTBEAT_OK only when nothing needs doing.\n');

  mkdirSync(bin);
  const shim = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  shim('transcript-doctor', `exec "${process.execPath}" "${join(ROOT, 'bin', 'transcript-doctor.js')}" "$@"`);
  // The macOS clipboard, holding the error a user just copied.
  // The agents guard runs: each exits at once, as one that found nothing to do.
  for (const agent of ['claude', 'codex', 'gemini']) shim(agent, 'exit 0');
  shim('pbpaste', `printf '%s' 'No tool output found for function call ${CODEX_CALL_ID}.'`);
  // JSON reports of disjoint files, for merge-reports: two shards, and two runs over halves.
  const { env } = sandboxAt(root);
  const [a, b] = [SESSION_ID, 'f787cf70-51e3-4c8b-9204-2dfbea70be02'].map((id) => `sessions/${id}.jsonl`);
  const reports = [`scan logs/ --shard 1/2 -r json -o shard-1.json`, `scan logs/ --shard 2/2 -r json -o shard-2.json`, `scan ${a} -r json -o a.json`, `scan ${b} -r json -o b.json`];
  for (const args of reports) spawnSync('bash', ['-c', `transcript-doctor ${args}`], { cwd, env });
  made = root;
  return root;
}

function sandboxAt(root: string): { cwd: string; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { PATH: `${join(root, 'bin')}:${process.env.PATH}`, HOME: join(root, 'home'), CI: '1', NO_COLOR: '1', LANG: 'C.UTF-8' };
  return { cwd: join(root, 'work'), env };
}

/** The example with its placeholders filled in: the session id of a session in the fake home. */
function filled(command: string): string {
  return command.replaceAll('<id>', SESSION_ID);
}

const examples = [...documentationExamples(), ...helpExamples()];
const skipped = (example: Example) => NOT_RUN.find((skip) => skip.example.test(example.command));

describe('the shell examples of the README, docs/ and --help', () => {
  it('are found (the parser reads the pages and the help as written)', () => {
    expect(examples.filter((example) => example.where.startsWith('README')).length).toBeGreaterThan(5);
    expect(examples.filter((example) => example.where.startsWith('docs/')).length).toBeGreaterThan(20);
    expect(new Set(examples.filter((example) => example.where.endsWith('--help')).map((example) => example.where)).size).toBe(COMMANDS.length);
    expect(examples.some((example) => example.command.startsWith('transcript-doctor scan -l -0 | xargs -0 -r'))).toBe(true);
  });

  it('every example not run has a reason, and every reason still matches an example', () => {
    for (const skip of NOT_RUN) expect(examples.some((example) => skip.example.test(example.command)), `${skip.example}: ${skip.why}`).toBe(true);
  });

  it.each(examples.filter((example) => skipped(example) === undefined).map((example) => [`${example.where}: ${example.command}`, example] as const))(
    '%s',
    (_, example) => {
      const { cwd, env } = sandbox();
      const result = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', filled(example.command)], { cwd, env, encoding: 'utf8', timeout: 60_000 });
      expect(result.error).toBeUndefined();
      expect(FINE, `exit ${result.status}\n${result.stderr}`).toContain(result.status);
      expect(result.stderr).not.toMatch(/unexpected error|^\s+at |command not found|No such file/m);
    },
  );

  it('explain finds the session the examples name in the fake home', () => {
    const { cwd, env } = sandbox();
    const anthropic = examples.find((example) => example.command.startsWith("transcript-doctor explain 'messages.14"))!;
    const found = spawnSync('bash', ['-c', anthropic.command], { cwd, env, encoding: 'utf8' });
    expect(found.status).toBe(0);
    expect(found.stdout).toContain('b1c2d3e4-0000-4000-8000-000000000001.jsonl');
    const pasted = spawnSync('bash', ['-c', 'pbpaste | transcript-doctor explain -'], { cwd, env, encoding: 'utf8' });
    expect(pasted.status).toBe(0);
    expect(pasted.stdout).toContain('rollout-2026-11-01T10-00-00');
  });
});
