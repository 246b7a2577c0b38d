import { commandsOf, type CompletedArgument, type CompletedCommand, type CompletedOption, type CompletedValue } from './program-shape.js';
import { functionSuffix, singleQuoted, summary } from './text.js';

/**
 * The zsh completion script for a program: one `_arguments` function per command, subcommands
 * offered with their descriptions. It works from a file named `_<bin>` in $fpath and when sourced
 * after compinit.
 */
export function zshCompletion(program: CompletedCommand, bin: string): string {
  const name = `_${bin.replace(/[^A-Za-z0-9]/g, '_')}`;
  const functionOf = (path: readonly string[]) => (path.length === 0 ? `${name}` : `${name}__${functionSuffix(path)}`);
  const bodies = commandsOf(program).map(({ path, command }) => commandFunction(functionOf(path), command, (sub) => functionOf([...path, sub])));
  return `#compdef ${bin}
# zsh completion for ${bin}, made from its commands by \`${bin} completion zsh\`.

${bodies.join('\n\n')}

if [[ "\${funcstack[1]}" == ${name} ]]; then
  ${name} "$@"
else
  compdef ${name} ${bin}
fi
`;
}

function commandFunction(fn: string, command: CompletedCommand, functionOfSub: (name: string) => string): string {
  const specs = command.options.flatMap(optionSpecs);
  if (command.commands.length > 0) {
    const described = command.commands.map((sub) => `    ${singleQuoted(`${sub.name.replaceAll(':', '\\:')}:${summary(sub.description)}`)}`);
    const arms = command.commands.map((sub) => `      ${singleQuoted(sub.name)}) ${functionOfSub(sub.name)} ;;`);
    return `${fn}() {
  local curcontext="$curcontext" state line
  local -a subcommands
  subcommands=(
${described.join('\n')}
  )
  _arguments -C \\
${[...specs, `'1: :->subcommand'`, `'*:: :->argument'`].map((spec) => `    ${spec}`).join(' \\\n')}
  case $state in
    subcommand) _describe -t commands command subcommands ;;
    argument)
      case $words[1] in
${arms.join('\n')}
      esac ;;
  esac
}`;
  }
  const argumentSpecs = command.arguments.map(argumentSpec);
  return `${fn}() {
  _arguments -s -S \\
${[...specs, ...argumentSpecs].map((spec) => `    ${spec}`).join(' \\\n')}
}`;
}

/** One spec per spelling; a non-repeatable option excludes all its spellings once given. */
function optionSpecs(option: CompletedOption): string[] {
  const prefix = option.repeatable ? '*' : option.flags.length > 1 ? `(${option.flags.join(' ')})` : '';
  const help = `[${escapeBrackets(summary(option.description))}]`;
  return option.flags.map((flag) => {
    const takes = option.value === undefined ? '' : flag.startsWith('--') ? '=' : '';
    const action = option.value === undefined ? '' : `:${placeholder(option)}:${valueAction(option.value)}`;
    return singleQuoted(`${prefix}${flag}${takes}${help}${action}`);
  });
}

function argumentSpec(argument: CompletedArgument): string {
  const message = argument.name.replaceAll(':', '\\:');
  if (argument.variadic && argument.value.kind === 'command' && argument.value.values === undefined) {
    // An agent's own command line: zsh completes it as if typed on its own.
    return singleQuoted(`*::${message}:_normal`);
  }
  return singleQuoted(`${argument.variadic ? '*' : ''}:${message}:${valueAction(argument.value)}`);
}

function placeholder(option: CompletedOption): string {
  return (option.flags.at(-1) ?? 'value').replace(/^-+/, '');
}

function valueAction(value: CompletedValue): string {
  if (value.values !== undefined) return `(${value.values.map((word) => word.replace(/([\s()\\])/g, '\\$1')).join(' ')})`;
  switch (value.kind) {
    case 'file':
      return '_files';
    case 'directory':
      return '_files -/';
    case 'command':
      return '_command_names -e';
    case 'text':
      return ' ';
  }
}

function escapeBrackets(text: string): string {
  return text.replace(/([[\]\\])/g, '\\$1');
}
