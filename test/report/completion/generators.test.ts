import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionScript, SHELLS } from '../../../src/report/completion/index.js';
import { summary } from '../../../src/report/completion/text.js';
import { expectGolden } from '../golden.js';
import { DEMO } from './demo-program.js';
import { bashCandidates, scriptFile, syntaxErrors } from './shell-run.js';

describe('completion scripts of a small described program', () => {
  it.each(SHELLS)('%s: the script is the golden one', (shell) => {
    expectGolden(`completion.${shell}`, completionScript(shell, DEMO, 'demo'));
  });

  it('bash: the script passes bash -n', () => {
    expect(syntaxErrors('bash', scriptFile(completionScript('bash', DEMO, 'demo'), 'demo.bash'))).toBe('');
  });

  describe('bash: what the function offers', () => {
    const file = scriptFile(completionScript('bash', DEMO, 'demo'), 'demo.bash');
    const offered = (...words: string[]) => bashCandidates(file, '_demo', ['demo', ...words]);

    it('commands, then the subcommands of a command, filtered by what is typed', () => {
      expect(offered('')).toEqual(['check', 'hooks', 'run']);
      expect(offered('h')).toEqual(['hooks']);
      expect(offered('hooks', '')).toEqual(['add']);
    });

    it('the options of the command the words reach, and only its own', () => {
      expect(offered('-')).toEqual(['-v', '--version']);
      expect(offered('check', '--')).toEqual(['--mode', '--out', '--tag', '--cache-dir', '--fast']);
      expect(offered('hooks', 'add', '-')).toEqual(['--dry-run']);
    });

    it("an option's choices, after a space or an = that bash split off", () => {
      expect(offered('check', '--mode', '')).toEqual(['keep', 'drop']);
      expect(offered('check', '-m', 'd')).toEqual(['drop']);
      expect(offered('check', '--mode', '=', 'k')).toEqual(['keep']);
      expect(offered('check', '--mode', '=')).toEqual(['keep', 'drop']);
    });

    it('an argument with choices; free text offers nothing; paths offer files', () => {
      const folder = mkdtempSync(join(tmpdir(), 'td-completion-files-'));
      writeFileSync(join(folder, 'session.jsonl'), '');
      mkdirSync(join(folder, 'sub'));
      expect(offered('hooks', 'add', '')).toEqual(['alpha', 'beta']);
      expect(offered('check', '')).toEqual([]);
      expect(offered('check', 'some error', `${folder}/se`)).toEqual([`${folder}/session.jsonl`]);
      // An option's value is not an argument: the error is still to come.
      expect(offered('check', '--tag', 'x', '')).toEqual([]);
      expect(offered('check', '--out', `${folder}/s`)).toEqual([`${folder}/session.jsonl`, `${folder}/sub`]);
      expect(offered('check', '--cache-dir', `${folder}/s`)).toEqual([`${folder}/sub`]);
    });

    it('a command line: its first word is a command', () => {
      expect(offered('run', 'bas')).toContain('bash');
    });
  });

  it('menus show the first clause of a description, at most 80 characters', () => {
    expect(summary('Check files; and more')).toBe('Check files');
    expect(summary('Merge JSON reports (from --shard runs) into one')).toBe('Merge JSON reports');
    expect(summary('x'.repeat(100))).toHaveLength(80);
  });
});
