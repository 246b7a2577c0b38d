import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';

/**
 * The page in docs/commands/ of each command, by the words that run it (`hooks install` for a
 * subcommand). One table, so every command's --help links its page and a test can hold each
 * command to having one; a command missing here has no link, and that test fails.
 */
export const COMMAND_PAGES: Readonly<Record<string, string>> = {
  scan: 'scan.md',
  repair: 'repair.md',
  canonicalize: 'canonicalize.md',
  verify: 'verify.md',
  'merge-reports': 'merge-reports.md',
  explain: 'explain.md',
  slim: 'slim.md',
  rules: 'rules.md',
  hooks: 'hooks.md',
  'hooks install': 'hooks.md',
  'hooks uninstall': 'hooks.md',
  hook: 'hooks.md',
  restore: 'restore.md',
  locate: 'locate-and-guard.md',
  guard: 'locate-and-guard.md',
  completion: 'completion.md',
};

/** docs/commands in the installed package (the bundle's copy of this URL loses a trailing slash, so pages are joined on). */
const INSTALLED = (): string => fileURLToPath(new URL('../../docs/commands', import.meta.url));

/** The words that run a command below the program: `hooks install`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** Ends the --help of every command that has a page with where the page is, in the repository and here. */
export function linkDocPages(program: Command): void {
  const visit = (command: Command): void => {
    const page = COMMAND_PAGES[commandPath(command)];
    if (page !== undefined) {
      // A function: the installed path is worked out only when help is shown.
      command.addHelpText('after', () => `\nDocumentation: docs/commands/${page} (installed: ${join(INSTALLED(), page)})`);
    }
    command.commands.forEach(visit);
  };
  program.commands.forEach(visit);
}
