import { spawnSync } from 'node:child_process';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { describeProgram } from '../../src/commands/describe-program.js';
import { completionScript } from '../../src/report/completion/index.js';
import { bashCandidates, scriptFile, syntaxErrors } from '../report/completion/shell-run.js';
import { COMMANDS, PROGRAM } from './completion-program.js';
import { runCli } from './run-cli.js';

describe('completion bash, from the real program', async () => {
  const printed = await runCli(['completion', 'bash']);
  const file = scriptFile(printed.stdout, 'transcript-doctor.bash');
  const offered = (...words: string[]) => bashCandidates(file, '_transcript_doctor', ['transcript-doctor', ...words]);

  it('prints a script bash -n accepts, which registers the function', () => {
    expect(printed).toMatchObject({ code: 0, stderr: '' });
    expect(syntaxErrors('bash', file)).toBe('');
    const registered = spawnSync('bash', ['--norc', '-c', `source '${file}' && complete -p transcript-doctor`], { encoding: 'utf8' });
    expect(registered.stdout.trim()).toBe('complete -F _transcript_doctor transcript-doctor');
  });

  it('offers every command and every option of each', () => {
    expect(COMMANDS.length).toBeGreaterThan(14);
    for (const { path, command } of COMMANDS) {
      if (command.commands.length > 0) expect(offered(...path, '')).toEqual(command.commands.map((sub) => sub.name));
      expect(offered(...path, '-').sort()).toEqual(command.options.flatMap((option) => option.flags).sort());
    }
  });

  it('offers the choices of --mode, --reporter, --provider, --agent and the agents of hooks', () => {
    expect(offered('repair', '--mode', '')).toEqual(['discard', 'synthetic']);
    expect(offered('scan', '-r', 'ju')).toEqual(['junit']);
    expect(offered('merge-reports', '--output-format', 'sa')).toEqual(['sarif']);
    expect(offered('scan', '--provider', 'openai')).toEqual(['openai-chat', 'openai-responses']);
    expect(offered('scan', '--agent', 'claude')).toEqual(['claude-code']);
    expect(offered('guard', '--agent', 'co')).toEqual(['codex', 'copilot-cli']);
    expect(offered('hooks', 'install', 'g')).toEqual(['gemini-cli']);
    expect(offered('completion', '')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('offers files for paths and for file options, after options with values', () => {
    expect(offered('scan', '-r', 'json', 'package.js')).toEqual(['package.json']);
    expect(offered('repair', '-o', 'package.js')).toEqual(['package.json']);
    expect(offered('explain', 'some error', 'package.js')).toEqual(['package.json']);
    expect(offered('explain', 'package.js')).toEqual([]);
  });

  it('an unknown shell is one line on standard error and exit 2', async () => {
    const result = await runCli(['completion', 'ksh']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('transcript-doctor: unknown shell "ksh" (choose from: bash, zsh, fish)\n');
  });
});

describe('the description is read from the program', () => {
  it('a command added later is completed with no other change', () => {
    const program = buildProgram(() => {});
    program.addCommand(new Command('later').description('Added later.').addOption(new Option('-z, --zap <file>', 'a file')).argument('[paths...]'));
    const file = scriptFile(completionScript('bash', describeProgram(program), 'transcript-doctor'), 'later.bash');
    const offered = (...words: string[]) => bashCandidates(file, '_transcript_doctor', ['transcript-doctor', ...words]);
    expect(offered('la')).toEqual(['later']);
    expect(offered('later', '-')).toEqual(['-z', '--zap', '-h', '--help']);
    expect(offered('later', '--zap', 'package.js')).toEqual(['package.json']);
  });

  it('hidden options (the old --output) and commander\'s help command are left out', () => {
    const repair = PROGRAM.commands.find((command) => command.name === 'repair')!;
    expect(repair.options.flatMap((option) => option.flags)).not.toContain('--output');
    expect(repair.options.flatMap((option) => option.flags)).toContain('--out');
    expect(PROGRAM.commands.map((command) => command.name)).not.toContain('help');
  });

  it('repeatable options are marked, so zsh offers them again', () => {
    const scan = PROGRAM.commands.find((command) => command.name === 'scan')!;
    const repeatable = scan.options.filter((option) => option.repeatable).map((option) => option.flags.at(-1));
    expect(repeatable).toEqual(expect.arrayContaining(['--reporter', '--format', '--output-format', '--output-file']));
    expect(repeatable).not.toContain('--mode');
  });
});
