import type { Command } from 'commander';

/** Adds `rules` to the program: its arguments, options and help; the command itself is in rules.ts, loaded when it runs. */
export function addRulesCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('rules')
    .description('List every rule, or show one rule’s documentation.')
    .argument('[id]', 'a rule id, e.g. missing-tool-result')
    .action(async (id: string | undefined) => {
      setExitCode((await import('./rules.js')).rulesCommand(id));
    });
}
