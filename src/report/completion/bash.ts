import { commandsOf, type CompletedCommand, type CompletedValue } from './program-shape.js';
import { singleQuoted } from './text.js';

/**
 * The bash completion script for a program: a few lookup functions made from the description
 * (subcommands, options, the value each option takes, what each argument is) and one fixed
 * function that walks the words typed so far. Works on bash 4 and later.
 */
export function bashCompletion(program: CompletedCommand, bin: string): string {
  const all = commandsOf(program);
  const name = `_${bin.replace(/[^A-Za-z0-9]/g, '_')}`;
  const key = (path: readonly string[]) => singleQuoted(path.join(' '));
  const caseOf = (fn: string, comment: string, arms: string[]) =>
    [`# ${comment}`, `${name}_${fn}() {`, '  case "$1" in', ...arms, "    *) REPLY='' ;;", '  esac', '}'].join('\n');

  const subcommands = all
    .filter(({ command }) => command.commands.length > 0)
    .map(({ path, command }) => `    ${key(path)}) REPLY=${singleQuoted(command.commands.map((sub) => sub.name).join(' '))} ;;`);
  const options = all.map(({ path, command }) => `    ${key(path)}) REPLY=${singleQuoted(command.options.flatMap((option) => option.flags).join(' '))} ;;`);
  const optionValues = all.flatMap(({ path, command }) =>
    command.options
      .filter((option) => option.value !== undefined)
      .map((option) => `    ${option.flags.map((flag) => singleQuoted(`${path.join(' ')}|${flag}`)).join('|')}) REPLY=${singleQuoted(valueWord(option.value!))} ;;`),
  );
  const argumentsAt = all.flatMap(({ path, command }) => argumentArms(path, command));

  return `# bash completion for ${bin}, made from its commands by \`${bin} completion bash\`.
# Load it with: source <(${bin} completion bash)

${caseOf('subcommands', 'The subcommands of a command ($1: the words that reach it).', subcommands)}

${caseOf('options', 'The options of a command.', options)}

${caseOf('option_value', 'What the word after an option is ($1: command|option); empty for a flag.', optionValues)}

${caseOf('argument', 'What the nth argument of a command is ($1: command|n, n from 0).', argumentsAt)}

# Candidates of one kind: list:<words>, file, directory, command or text (none).
${name}_offer() {
  # Words split on blanks; file and command names, which may hold blanks, one a line.
  local IFS=$' \\t\\n'
  [[ $1 == list:* ]] || IFS=$'\\n'
  case "$1" in
    list:*) COMPREPLY=($(compgen -W "\${1#list:}" -- "$2")) ;;
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$2")) ;;
    directory) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$2")) ;;
    command) COMPREPLY=($(compgen -c -- "$2")) ;;
    *) COMPREPLY=() ;;
  esac
}

${name}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev='' path='' word REPLY
  local -i i=1 positional=0 after_dashes=0
  # Walk the words before the cursor: subcommands deepen the path, an option's value is skipped
  # (also when bash split --option=value at the =), the rest are arguments.
  while (( i < COMP_CWORD )); do
    word="\${COMP_WORDS[i]}"
    if (( after_dashes )); then
      positional+=1
    elif [[ $word == -- ]]; then
      after_dashes=1
    elif [[ $word == -* ]]; then
      ${name}_option_value "$path|$word"
      if [[ -n $REPLY && $word != *=* ]]; then
        if [[ \${COMP_WORDS[i+1]} == = ]] && (( i + 1 < COMP_CWORD )); then i+=2; else i+=1; fi
      fi
    else
      ${name}_subcommands "$path"
      if (( positional == 0 )) && [[ " $REPLY " == *" $word "* ]]; then
        path="\${path:+$path }$word"
      else
        positional+=1
      fi
    fi
    i+=1
  done

  if (( ! after_dashes )); then
    prev="\${COMP_WORDS[COMP_CWORD-1]}"
    if [[ $cur == = ]]; then
      cur=''
    elif [[ $prev == = ]]; then
      prev="\${COMP_WORDS[COMP_CWORD-2]}"
    fi
    # The cursor is on an option's value.
    if [[ $prev == -* ]] && (( COMP_CWORD > 1 )); then
      ${name}_option_value "$path|$prev"
      if [[ -n $REPLY ]]; then ${name}_offer "$REPLY" "$cur"; return 0; fi
    fi
    if [[ $cur == -* ]]; then
      ${name}_options "$path"
      ${name}_offer "list:$REPLY" "$cur"
      return 0
    fi
  fi
  ${name}_subcommands "$path"
  if (( positional == 0 )) && [[ -n $REPLY ]]; then
    ${name}_offer "list:$REPLY" "$cur"
    return 0
  fi
  ${name}_argument "$path|$positional"
  ${name}_offer "$REPLY" "$cur"
}

complete -F ${name} ${bin}
`;
}

/** An option's or argument's value as the script's lookups give it. */
function valueWord(value: CompletedValue): string {
  return value.values !== undefined ? `list:${value.values.join(' ')}` : value.kind;
}

/**
 * The arms saying what each argument of a command is. After a variadic argument every index is
 * the same; a variadic command line (guard's) is a command, then its files.
 */
function argumentArms(path: readonly string[], command: CompletedCommand): string[] {
  const arms: string[] = [];
  const at = (index: string) => singleQuoted(`${path.join(' ')}|${index}`);
  command.arguments.forEach((argument, index) => {
    if (argument.variadic && argument.value.kind === 'command' && argument.value.values === undefined) {
      arms.push(`    ${at(String(index))}) REPLY='command' ;;`, `    ${at('')}*) REPLY='file' ;;`);
    } else if (argument.variadic) {
      arms.push(`    ${at('')}*) REPLY=${singleQuoted(valueWord(argument.value))} ;;`);
    } else {
      arms.push(`    ${at(String(index))}) REPLY=${singleQuoted(valueWord(argument.value))} ;;`);
    }
  });
  return arms;
}
