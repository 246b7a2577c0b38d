import type { Argument, Command, Option } from 'commander';
import type { CompletedArgument, CompletedCommand, CompletedOption, CompletedValue, ValueKind } from '../report/completion/index.js';
import { collect, offeredValues } from './offered-values.js';

/**
 * The commander program as completion scripts need it: every visible command, option and
 * argument, read from the program itself so a command added later is completed with no more work.
 */
export function describeProgram(program: Command): CompletedCommand {
  const help = program.createHelp();
  return {
    name: program.name(),
    description: program.description(),
    options: help.visibleOptions(program).map(describeOption),
    arguments: program.registeredArguments.map(describeArgument),
    // program.commands holds the commands added; commander's implicit `help` command is not one of them.
    commands: help.visibleCommands(program).filter((command) => program.commands.includes(command)).map(describeProgram),
  };
}

function describeOption(option: Option): CompletedOption {
  const flags = [option.short, option.long].filter((flag): flag is string => flag !== undefined);
  const takesValue = option.required || option.optional;
  return {
    flags,
    description: option.description,
    value: takesValue ? valueOf(placeholderOf(option.flags), offeredValues(option)) : undefined,
    repeatable: option.variadic || option.parseArg === collect,
  };
}

function describeArgument(argument: Argument): CompletedArgument {
  return { name: argument.name(), description: argument.description, value: valueOf(argument.name(), offeredValues(argument)), variadic: argument.variadic };
}

/** `<path>` in `-o, --output-file <path>`. */
function placeholderOf(flags: string): string {
  return /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1] ?? '';
}

function valueOf(placeholder: string, values: readonly string[] | undefined): CompletedValue {
  return values === undefined ? { kind: kindOf(placeholder) } : { kind: 'text', values };
}

/** What a value is, from the name the help gives it: `<file>`, `[paths...]`, `<dir>`, `<command...>`. */
function kindOf(placeholder: string): ValueKind {
  const name = placeholder.replace(/\.\.\.$/, '');
  if (/dir/.test(name)) return 'directory';
  if (/^(file|files|path|paths|report|reports)$/.test(name)) return 'file';
  if (name === 'command') return 'command';
  return 'text';
}
