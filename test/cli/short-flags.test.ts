import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { commandPath } from '../../src/commands/doc-pages.js';

/** Every command's options with their short flag: [command words, short flag, long flag]. */
function shortFlags(command: Command): Array<[string, string, string]> {
  const own = command.createHelp().visibleOptions(command)
    .filter((option) => option.short !== undefined)
    .map((option): [string, string, string] => [commandPath(command) || '(program)', option.short!, option.long ?? '']);
  return [...own, ...command.commands.flatMap(shortFlags)];
}

/**
 * One short flag means one thing in every command. The meanings, in docs/commands/scan.md
 * ("Short flags"): a new one goes in that table, and must not take a letter already used.
 */
const MEANINGS: Readonly<Record<string, string>> = {
  '-0': '--null',
  '-c': '--config',
  '-f': '--format',
  '-h': '--help',
  '-i': '--in-place',
  '-j': '--jobs',
  '-l': '--files-with-errors',
  '-m': '--mode',
  '-o': '--output-file',
  '-q': '--quiet',
  '-r': '--reporter',
  '-v': '--version',
};

/** Long options that share a name but not a meaning, so they take no short flag there: why. */
const UNSHORTENED: ReadonlyArray<[command: string, long: string, why: string]> = [
  ['verify', '--config', 'the OpenClaw config the verifier model is read from, not the project config -c names'],
];

describe('short flags', () => {
  const flags = shortFlags(buildProgram(() => {}));

  it('are found in every command', () => {
    expect(new Set(flags.map(([command]) => command)).size).toBeGreaterThan(14);
  });

  it('each means one long option, the same in every command', () => {
    const meanings = new Map<string, Set<string>>();
    for (const [, short, long] of flags) meanings.set(short, new Set([...(meanings.get(short) ?? []), long]));
    expect(Object.fromEntries([...meanings].map(([short, longs]) => [short, [...longs].join(' | ')]))).toEqual(MEANINGS);
  });

  it('a long option that has a short flag somewhere has it everywhere, but where listed', () => {
    const program = buildProgram(() => {});
    const shortOf = new Map(Object.entries(MEANINGS).map(([short, long]) => [long, short]));
    const missing: string[] = [];
    const visit = (command: Command): void => {
      for (const option of command.options) {
        const short = option.long === undefined ? undefined : shortOf.get(option.long);
        if (short === undefined || option.short !== undefined || option.hidden) continue;
        if (!UNSHORTENED.some(([name, long]) => name === commandPath(command) && long === option.long)) missing.push(`${commandPath(command)} ${option.long} (${short})`);
      }
      command.commands.forEach(visit);
    };
    visit(program);
    expect(missing).toEqual([]);
  });
});
