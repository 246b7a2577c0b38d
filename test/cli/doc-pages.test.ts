import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { COMMAND_PAGES, commandPath } from '../../src/commands/doc-pages.js';
import { ROOT, runCli } from './run-cli.js';

const PROGRAM = buildProgram(() => {});

/** The words that run every command and subcommand of the program. */
function commandPaths(command: Command): string[] {
  return command.commands.flatMap((sub) => [commandPath(sub), ...commandPaths(sub)]);
}

describe("every command's --help links its page", () => {
  const paths = commandPaths(PROGRAM);

  it('every command has a page in docs/commands/ that exists, and the table names no other command', () => {
    expect(paths.length).toBeGreaterThan(14);
    for (const path of paths) {
      expect(COMMAND_PAGES[path], `no page for "${path}" in src/commands/doc-pages.ts`).toBeDefined();
      expect(existsSync(join(ROOT, 'docs', 'commands', COMMAND_PAGES[path]!)), COMMAND_PAGES[path]).toBe(true);
    }
    expect(Object.keys(COMMAND_PAGES).sort()).toEqual([...paths].sort());
  });

  it('--help ends with the page, in the repository and where it is installed', () => {
    const find = (path: string) => path.split(' ').reduce((at: Command, name) => at.commands.find((sub) => sub.name() === name)!, PROGRAM);
    for (const path of paths) {
      let help = '';
      find(path).configureOutput({ writeOut: (text) => (help += text) }).outputHelp();
      const page = COMMAND_PAGES[path]!;
      expect(help.trimEnd().split('\n').at(-1), path).toBe(`Documentation: docs/commands/${page} (installed: ${join(ROOT, 'docs', 'commands', page)})`);
    }
  });

  it('the built CLI finds its pages too (the bundle rebases the path)', async () => {
    const help = await runCli(['hooks', 'install', '--help']);
    expect(help.stdout.trimEnd().split('\n').at(-1)).toBe(`Documentation: docs/commands/hooks.md (installed: ${join(ROOT, 'docs', 'commands', 'hooks.md')})`);
  });
});

describe('every page under docs/ is linked', () => {
  const pages = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md')).map((name) => join('docs', name));

  /** The files a page's markdown links point to, as paths from the repository's root. */
  const linksOf = (page: string): string[] =>
    [...readFileSync(join(ROOT, page), 'utf8').matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .map((target) => normalize(relative(ROOT, join(ROOT, dirname(page), target))));

  it('from the README or another page', () => {
    expect(pages.length).toBeGreaterThan(50);
    const linked = new Map<string, string[]>();
    for (const from of ['README.md', 'CHANGELOG.md', ...pages]) {
      for (const to of linksOf(from)) if (to !== from) linked.set(to, [...(linked.get(to) ?? []), from]);
    }
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('and every link between them points to a file that exists', () => {
    const broken = ['README.md', 'CHANGELOG.md', ...pages].flatMap((from) => linksOf(from).filter((to) => !existsSync(join(ROOT, to))).map((to) => `${from} → ${to}`));
    expect(broken).toEqual([]);
  });
});
