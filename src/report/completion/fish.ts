import { commandsOf, type CompletedCommand, type CompletedOption, type CompletedValue } from './program-shape.js';
import { fishQuoted, summary } from './text.js';

/**
 * The fish completion script for a program: a helper that works out which command the words typed
 * so far reach, and one `complete` line per subcommand, option and argument, each conditional on it.
 */
export function fishCompletion(program: CompletedCommand, bin: string): string {
  const all = commandsOf(program);
  const name = `__${bin.replace(/[^A-Za-z0-9]/g, '_')}`;
  const key = (path: readonly string[]) => fishQuoted(path.join(' '));
  const subcommands = all
    .filter(({ command }) => command.commands.length > 0)
    .map(({ path, command }) => `    case ${key(path)}\n      printf '%s\\n' ${command.commands.map((sub) => fishQuoted(sub.name)).join(' ')}`);
  const valued = all.flatMap(({ path, command }) =>
    command.options.filter((option) => option.value !== undefined).flatMap((option) => option.flags.map((flag) => fishQuoted(`${path.join(' ')}|${flag}`))),
  );

  const lines: string[] = [`complete -c ${bin} -f`];
  for (const { path, command } of all) {
    const when = `-n ${fishQuoted(`${name}_at ${fishQuoted(path.join(' '))}`)}`;
    for (const sub of command.commands) lines.push(`complete -c ${bin} ${when} -a ${fishQuoted(sub.name)} -d ${fishQuoted(summary(sub.description))}`);
    for (const option of command.options) lines.push(`complete -c ${bin} ${when} ${optionFlags(option)} -d ${fishQuoted(summary(option.description))}`);
    for (const argument of command.arguments) {
      const offered = valueFlags(argument.value);
      if (offered !== '') lines.push(`complete -c ${bin} ${when} ${offered}`);
    }
  }

  return `# fish completion for ${bin}, made from its commands by \`${bin} completion fish\`.
# Load it with: ${bin} completion fish | source

# The subcommands of a command ($argv[1]: the words that reach it).
function ${name}_subcommands
  switch $argv[1]
${subcommands.join('\n')}
  end
end

# Whether an option takes a value ($argv[1]: command|option).
function ${name}_takes_value
  switch $argv[1]
    case ${valued.length > 0 ? valued.join(' ') : "''"}
      return 0
  end
  return 1
end

# The command the words before the cursor reach: subcommands deepen it, option values are skipped.
function ${name}_path
  set -l words (commandline -opc)
  set -e words[1]
  set -l path ''
  set -l skip 0
  for word in $words
    if test $skip = 1
      set skip 0
      continue
    end
    if test "$word" = '--'
      break
    end
    if string match -q -- '-*' $word
      if not string match -q -- '*=*' $word; and ${name}_takes_value "$path|$word"
        set skip 1
      end
      continue
    end
    if contains -- $word (${name}_subcommands "$path")
      set path (string trim -- "$path $word")
    else
      break
    end
  end
  echo $path
end

function ${name}_at
  set -l path (${name}_path)
  test "$path" = "$argv[1]"
end

${lines.join('\n')}
`;
}

function optionFlags(option: CompletedOption): string {
  const spelled = option.flags.map((flag) => (flag.startsWith('--') ? `-l ${fishQuoted(flag.slice(2))}` : flag.length === 2 ? `-s ${fishQuoted(flag.slice(1))}` : `-o ${fishQuoted(flag.slice(1))}`));
  return option.value === undefined ? spelled.join(' ') : `${spelled.join(' ')} -r ${valueFlags(option.value)}`.trimEnd();
}

/** What fish offers for a value: its words, files, folders, commands, or nothing. */
function valueFlags(value: CompletedValue): string {
  if (value.values !== undefined) return `-x -a ${fishQuoted(value.values.join(' '))}`;
  switch (value.kind) {
    case 'file':
      return '-F';
    case 'directory':
      return `-x -a ${fishQuoted('(__fish_complete_directories)')}`;
    case 'command':
      return `-x -a ${fishQuoted('(__fish_complete_command)')}`;
    case 'text':
      return '';
  }
}
