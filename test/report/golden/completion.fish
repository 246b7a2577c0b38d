# fish completion for demo, made from its commands by `demo completion fish`.
# Load it with: demo completion fish | source

# The subcommands of a command ($argv[1]: the words that reach it).
function __demo_subcommands
  switch $argv[1]
    case ''
      printf '%s\n' 'check' 'hooks' 'run'
    case 'hooks'
      printf '%s\n' 'add'
  end
end

# Whether an option takes a value ($argv[1]: command|option).
function __demo_takes_value
  switch $argv[1]
    case 'check|-m' 'check|--mode' 'check|-o' 'check|--out' 'check|--tag' 'check|--cache-dir'
      return 0
  end
  return 1
end

# The command the words before the cursor reach: subcommands deepen it, option values are skipped.
function __demo_path
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
      if not string match -q -- '*=*' $word; and __demo_takes_value "$path|$word"
        set skip 1
      end
      continue
    end
    if contains -- $word (__demo_subcommands "$path")
      set path (string trim -- "$path $word")
    else
      break
    end
  end
  echo $path
end

function __demo_at
  set -l path (__demo_path)
  test "$path" = "$argv[1]"
end

complete -c demo -f
complete -c demo -n '__demo_at \'\'' -a 'check' -d 'Check files'
complete -c demo -n '__demo_at \'\'' -a 'hooks' -d 'Hooks.'
complete -c demo -n '__demo_at \'\'' -a 'run' -d 'Run a command.'
complete -c demo -n '__demo_at \'\'' -s 'v' -l 'version' -d 'print the version'
complete -c demo -n '__demo_at \'check\'' -s 'm' -l 'mode' -r -x -a 'keep drop' -d 'what to do'
complete -c demo -n '__demo_at \'check\'' -s 'o' -l 'out' -r -F -d 'where to write [a file]'
complete -c demo -n '__demo_at \'check\'' -l 'tag' -r -d 'a tag, it\'s repeatable'
complete -c demo -n '__demo_at \'check\'' -l 'cache-dir' -r -x -a '(__fish_complete_directories)' -d 'a folder'
complete -c demo -n '__demo_at \'check\'' -l 'fast' -d 'go fast'
complete -c demo -n '__demo_at \'check\'' -F
complete -c demo -n '__demo_at \'hooks\'' -a 'add' -d 'Add one'
complete -c demo -n '__demo_at \'hooks add\'' -l 'dry-run' -d 'write nothing'
complete -c demo -n '__demo_at \'hooks add\'' -x -a 'alpha beta'
complete -c demo -n '__demo_at \'run\'' -x -a '(__fish_complete_command)'
