/**
 * What a completion script is made from: the commands, their options and arguments, described
 * without commander's types, so each shell's generator is a pure function of this and can be
 * tested on a small made-up program.
 */

/** What the word after an option, or an argument, can be. */
export type ValueKind = 'file' | 'directory' | 'command' | 'text';

export interface CompletedValue {
  kind: ValueKind;
  /** A closed list of words (`--mode discard|synthetic`); offered instead of `kind`'s candidates. */
  values?: readonly string[];
}

export interface CompletedOption {
  /** As typed: `-r`, `--reporter`; the short one first when there is one. */
  flags: readonly string[];
  description: string;
  /** Absent for a flag that takes no value. */
  value?: CompletedValue;
  /** Given more than once on one command line (`-r json -r sarif`). */
  repeatable: boolean;
}

export interface CompletedArgument {
  name: string;
  description: string;
  value: CompletedValue;
  variadic: boolean;
}

export interface CompletedCommand {
  name: string;
  description: string;
  options: readonly CompletedOption[];
  arguments: readonly CompletedArgument[];
  commands: readonly CompletedCommand[];
}

/** A command with the words that reach it from the program: `['hooks', 'install']`; the program's own is `[]`. */
export interface CommandAt {
  path: readonly string[];
  command: CompletedCommand;
}

/** Every command of the program, the program first, parents before their subcommands. */
export function commandsOf(program: CompletedCommand): CommandAt[] {
  const all: CommandAt[] = [];
  const visit = (command: CompletedCommand, path: readonly string[]): void => {
    all.push({ path, command });
    for (const sub of command.commands) visit(sub, [...path, sub.name]);
  };
  visit(program, []);
  return all;
}
