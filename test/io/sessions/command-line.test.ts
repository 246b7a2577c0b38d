import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentNamed, type AgentName } from '../../../src/io/sessions/index.js';
import { hasFlag, operands, optionValue } from '../../../src/io/sessions/command-line.js';

const ID = '4f1c0011-7a7e-4c55-9b61-0f4e4a7f2b10';
const resumes = (agent: AgentName, args: string) => agentNamed(agent)!.resumeFrom(args === '' ? [] : args.split(' '));

describe('reading an agent\'s command line', () => {
  it('takes --name value, --name=value and -n value, the last one given, and nothing after --', () => {
    expect(optionValue(['--resume', 'a'], ['--resume', '-r'])).toBe('a');
    expect(optionValue(['--resume=a'], ['--resume'])).toBe('a');
    expect(optionValue(['-r', 'a', '-r', 'b'], ['--resume', '-r'])).toBe('b');
    expect(optionValue(['-r', '-p', 'hi'], ['--resume', '-r'])).toBeNull();
    expect(optionValue(['-r'], ['--resume', '-r'])).toBeNull();
    expect(optionValue(['--', '--resume', 'a'], ['--resume'])).toBeUndefined();
    expect(hasFlag(['-p', '--', '-c'], ['-c'])).toBe(false);
    expect(operands(['-m', 'o3', 'resume', '--last', '--', '-x'], ['-m'])).toEqual(['resume', '-x']);
  });
});

describe('the session each agent\'s command line resumes', () => {
  it('Claude Code: --resume/-r <id>, --continue/-c; -r alone or with words is its picker', () => {
    expect(resumes('claude-code', `--resume ${ID}`)).toEqual({ kind: 'id', id: ID });
    expect(resumes('claude-code', `-p -r ${ID} continue`)).toEqual({ kind: 'id', id: ID });
    expect(resumes('claude-code', `--resume=${ID.slice(0, 8)}`)).toEqual({ kind: 'id', id: ID.slice(0, 8) });
    expect(resumes('claude-code', '-c -p hi')).toEqual({ kind: 'latest' });
    expect(resumes('claude-code', '--continue')).toEqual({ kind: 'latest' });
    expect(resumes('claude-code', '-r')).toEqual({ kind: 'picker' });
    expect(resumes('claude-code', '--resume auth-bug')).toEqual({ kind: 'picker' });
    expect(resumes('claude-code', '-p hello')).toBeUndefined();
    expect(resumes('claude-code', `-- --resume ${ID}`)).toBeUndefined();
  });

  it('Codex: [exec] resume <id> | --last [--all], with -C moving the folder --last looks at', () => {
    expect(resumes('codex', `resume ${ID}`)).toEqual({ kind: 'id', id: ID });
    expect(resumes('codex', `exec resume ${ID} continue`)).toEqual({ kind: 'id', id: ID });
    expect(resumes('codex', `e resume -m o3 ${ID}`)).toEqual({ kind: 'id', id: ID });
    expect(resumes('codex', `-c model="o3" resume --last`)).toEqual({ kind: 'latest' });
    expect(resumes('codex', 'resume --last --all')).toEqual({ kind: 'latest', allProjects: true });
    expect(resumes('codex', '-C /work/other resume --last')).toEqual({ kind: 'latest', cwd: '/work/other' });
    expect(resumes('codex', '--cd rel resume --last')).toEqual({ kind: 'latest', cwd: resolve('rel') });
    expect(resumes('codex', 'resume')).toEqual({ kind: 'picker' });
    expect(resumes('codex', 'resume my-thread-name')).toEqual({ kind: 'picker' });
    expect(resumes('codex', 'exec fix the tests')).toBeUndefined();
    expect(resumes('codex', '')).toBeUndefined();
  });

  it('pi: --session <file|id>, --fork <file|id>, --continue/-c; --resume/-r is its picker', () => {
    expect(resumes('pi', '--session ./s.jsonl')).toEqual({ kind: 'path', path: './s.jsonl' });
    expect(resumes('pi', '--session s.jsonl')).toEqual({ kind: 'path', path: 's.jsonl' });
    expect(resumes('pi', '--session 4f1c')).toEqual({ kind: 'id', id: '4f1c' });
    expect(resumes('pi', `--fork ${ID}`)).toEqual({ kind: 'id', id: ID });
    expect(resumes('pi', '-c')).toEqual({ kind: 'latest' });
    expect(resumes('pi', '--resume')).toEqual({ kind: 'picker' });
    expect(resumes('pi', '-p hello')).toBeUndefined();
  });

  it('Gemini CLI: --resume <id|latest|n>; --resume alone is latest', () => {
    expect(resumes('gemini-cli', `--resume ${ID}`)).toEqual({ kind: 'id', id: ID });
    expect(resumes('gemini-cli', '-r latest')).toEqual({ kind: 'latest' });
    expect(resumes('gemini-cli', '--resume')).toEqual({ kind: 'latest' });
    expect(resumes('gemini-cli', '--resume 3 -p continue')).toEqual({ kind: 'index', index: 3 });
  });

  it('Copilot CLI: --resume=<id>, --continue; --resume alone is its picker', () => {
    expect(resumes('copilot-cli', `--resume=${ID}`)).toEqual({ kind: 'id', id: ID });
    expect(resumes('copilot-cli', '--continue')).toEqual({ kind: 'latest' });
    expect(resumes('copilot-cli', '--resume')).toEqual({ kind: 'picker' });
  });

  it('Qwen Code: --resume/-r <id>, --continue/-c', () => {
    expect(resumes('qwen-code', `-r ${ID}`)).toEqual({ kind: 'id', id: ID });
    expect(resumes('qwen-code', '-c')).toEqual({ kind: 'latest' });
    expect(resumes('qwen-code', '--resume')).toEqual({ kind: 'picker' });
  });

  it('OpenClaw: the gateway picks its sessions, its command line names none', () => {
    expect(resumes('openclaw', 'gateway')).toBeUndefined();
  });
});
