import { describe, expect, it } from 'vitest';
import { completionScript } from '../../src/report/completion/index.js';
import { fishCandidates, scriptFile, syntaxErrors } from '../report/completion/shell-run.js';
import { DEMO } from '../report/completion/demo-program.js';
import { COMMANDS } from './completion-program.js';
import { ROOT, runCli } from './run-cli.js';

// Run where fish is installed (vitest.config.ts leaves this file out elsewhere; .ci/run installs it).
describe('completion fish', async () => {
  const printed = await runCli(['completion', 'fish']);
  const file = scriptFile(printed.stdout, 'transcript-doctor.fish');
  const offered = (line: string) => fishCandidates(file, `transcript-doctor ${line}`, ROOT);

  it('prints a script fish -n accepts (and so is the small program\'s)', () => {
    expect(printed).toMatchObject({ code: 0, stderr: '' });
    expect(syntaxErrors('fish', file)).toBe('');
    expect(syntaxErrors('fish', scriptFile(completionScript('fish', DEMO, 'demo'), 'demo.fish'))).toBe('');
  });

  it('offers every command and every long option of each', () => {
    for (const { path, command } of COMMANDS) {
      const words = path.map((word) => `${word} `).join('');
      if (command.commands.length > 0) expect(offered(words).sort()).toEqual(command.commands.map((sub) => sub.name).sort());
      const longs = command.options.flatMap((option) => option.flags).filter((flag) => flag.startsWith('--'));
      expect(offered(`${words}--`).sort(), path.join(' ')).toEqual(longs.sort());
    }
  });

  it('offers choices, and files where a path goes', () => {
    expect(offered('repair --mode ')).toEqual(['discard', 'synthetic']);
    expect(offered('scan -r j').sort()).toEqual(['json', 'junit']);
    expect(offered('hooks install ')).toContain('claude-code');
    expect(offered('scan -r json package.js')).toEqual(['package.json']);
    expect(offered('completion ').sort()).toEqual(['bash', 'fish', 'zsh']);
  });
});
