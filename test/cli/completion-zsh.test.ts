import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { completionScript } from '../../src/report/completion/index.js';
import { scriptFile, syntaxErrors, zshCandidates } from '../report/completion/shell-run.js';
import { DEMO } from '../report/completion/demo-program.js';
import { COMMANDS } from './completion-program.js';
import { ROOT, runCli } from './run-cli.js';

// Run where zsh is installed (vitest.config.ts leaves this file out elsewhere; .ci/run installs it).
describe('completion zsh', async () => {
  const printed = await runCli(['completion', 'zsh']);
  const file = scriptFile(printed.stdout, '_transcript-doctor');

  it('prints a script zsh -n accepts (and so is the small program\'s)', () => {
    expect(printed).toMatchObject({ code: 0, stderr: '' });
    expect(syntaxErrors('zsh', file)).toBe('');
    expect(syntaxErrors('zsh', scriptFile(completionScript('zsh', DEMO, 'demo'), '_demo'))).toBe('');
  });

  it('loads after compinit, registered for transcript-doctor, with a function per command', () => {
    const functions = COMMANDS.map(({ path }) => (path.length === 0 ? '_transcript_doctor' : `_transcript_doctor__${path.map((name) => name.replace(/[^A-Za-z0-9]/g, '_')).join('__')}`));
    const body = `autoload -U compinit && compinit -u -D -d "$TMPDIR/zcompdump" && source '${file}' && print -r -- "$_comps[transcript-doctor]" && whence -w ${functions.join(' ')}`;
    const run = spawnSync('zsh', ['-f', '-c', body], { encoding: 'utf8', env: { ...process.env, TMPDIR: scriptFile('', 'x').replace(/\/x$/, '') } });
    expect(run.stderr).toBe('');
    const [registered, ...kinds] = run.stdout.trim().split('\n');
    expect(registered).toBe('_transcript_doctor');
    expect(kinds).toEqual(functions.map((fn) => `${fn}: function`));
  });

  it('names every option of every command in that command\'s function', () => {
    for (const { path, command } of COMMANDS) {
      const name = path.length === 0 ? '_transcript_doctor' : `_transcript_doctor__${path.map((word) => word.replace(/[^A-Za-z0-9]/g, '_')).join('__')}`;
      const body = new RegExp(`^${name}\\(\\) \\{\\n([\\s\\S]*?)^\\}`, 'm').exec(printed.stdout)?.[1] ?? '';
      for (const flag of command.options.flatMap((option) => option.flags)) expect(body, `${path.join(' ')} ${flag}`).toMatch(new RegExp(`[)'*]${flag}[=[]`));
      for (const sub of command.commands) expect(body).toContain(`'${sub.name}:`);
    }
  });

  it('offers every command, every option of each, and the choices, when TAB is pressed in a real zsh', { timeout: 120_000 }, () => {
    const lines = [
      ...COMMANDS.filter(({ command }) => command.commands.length > 0).map(({ path }) => ['transcript-doctor', ...path, ''].join(' ')),
      ...COMMANDS.map(({ path }) => ['transcript-doctor', ...path, '-'].join(' ')),
      'transcript-doctor repair --mode ',
      'transcript-doctor scan -r ju',
      'transcript-doctor hooks install g',
      'transcript-doctor scan -r json package.js',
    ];
    const offered = zshCandidates(file, lines, ROOT);
    expect(offered).toHaveLength(lines.length);
    let at = 0;
    for (const { command } of COMMANDS.filter(({ command }) => command.commands.length > 0)) expect(offered[at++]).toEqual(command.commands.map((sub) => sub.name));
    // `--` (guard's end of options, before the agent's command line) is offered too.
    for (const { path, command } of COMMANDS) expect(offered[at++]!.filter((word) => !/^-+$/.test(word)).sort(), path.join(' ')).toEqual(command.options.flatMap((option) => option.flags).sort());
    expect(offered.slice(at)).toEqual([['discard', 'synthetic'], ['junit'], ['gemini-cli'], ['package.json']]);
  });
});
