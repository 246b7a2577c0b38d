# bash completion for demo, made from its commands by `demo completion bash`.
# Load it with: source <(demo completion bash)

# The subcommands of a command ($1: the words that reach it).
_demo_subcommands() {
  case "$1" in
    '') REPLY='check hooks run' ;;
    'hooks') REPLY='add' ;;
    *) REPLY='' ;;
  esac
}

# The options of a command.
_demo_options() {
  case "$1" in
    '') REPLY='-v --version' ;;
    'check') REPLY='-m --mode -o --out --tag --cache-dir --fast' ;;
    'hooks') REPLY='' ;;
    'hooks add') REPLY='--dry-run' ;;
    'run') REPLY='' ;;
    *) REPLY='' ;;
  esac
}

# What the word after an option is ($1: command|option); empty for a flag.
_demo_option_value() {
  case "$1" in
    'check|-m'|'check|--mode') REPLY='list:keep drop' ;;
    'check|-o'|'check|--out') REPLY='file' ;;
    'check|--tag') REPLY='text' ;;
    'check|--cache-dir') REPLY='directory' ;;
    *) REPLY='' ;;
  esac
}

# What the nth argument of a command is ($1: command|n, n from 0).
_demo_argument() {
  case "$1" in
    'check|0') REPLY='text' ;;
    'check|'*) REPLY='file' ;;
    'hooks add|0') REPLY='list:alpha beta' ;;
    'run|0') REPLY='command' ;;
    'run|'*) REPLY='file' ;;
    *) REPLY='' ;;
  esac
}

# Candidates of one kind: list:<words>, file, directory, command or text (none).
_demo_offer() {
  # Words split on blanks; file and command names, which may hold blanks, one a line.
  local IFS=$' \t\n'
  [[ $1 == list:* ]] || IFS=$'\n'
  case "$1" in
    list:*) COMPREPLY=($(compgen -W "${1#list:}" -- "$2")) ;;
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$2")) ;;
    directory) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$2")) ;;
    command) COMPREPLY=($(compgen -c -- "$2")) ;;
    *) COMPREPLY=() ;;
  esac
}

_demo() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev='' path='' word REPLY
  local -i i=1 positional=0 after_dashes=0
  # Walk the words before the cursor: subcommands deepen the path, an option's value is skipped
  # (also when bash split --option=value at the =), the rest are arguments.
  while (( i < COMP_CWORD )); do
    word="${COMP_WORDS[i]}"
    if (( after_dashes )); then
      positional+=1
    elif [[ $word == -- ]]; then
      after_dashes=1
    elif [[ $word == -* ]]; then
      _demo_option_value "$path|$word"
      if [[ -n $REPLY && $word != *=* ]]; then
        if [[ ${COMP_WORDS[i+1]} == = ]] && (( i + 1 < COMP_CWORD )); then i+=2; else i+=1; fi
      fi
    else
      _demo_subcommands "$path"
      if (( positional == 0 )) && [[ " $REPLY " == *" $word "* ]]; then
        path="${path:+$path }$word"
      else
        positional+=1
      fi
    fi
    i+=1
  done

  if (( ! after_dashes )); then
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    if [[ $cur == = ]]; then
      cur=''
    elif [[ $prev == = ]]; then
      prev="${COMP_WORDS[COMP_CWORD-2]}"
    fi
    # The cursor is on an option's value.
    if [[ $prev == -* ]] && (( COMP_CWORD > 1 )); then
      _demo_option_value "$path|$prev"
      if [[ -n $REPLY ]]; then _demo_offer "$REPLY" "$cur"; return 0; fi
    fi
    if [[ $cur == -* ]]; then
      _demo_options "$path"
      _demo_offer "list:$REPLY" "$cur"
      return 0
    fi
  fi
  _demo_subcommands "$path"
  if (( positional == 0 )) && [[ -n $REPLY ]]; then
    _demo_offer "list:$REPLY" "$cur"
    return 0
  fi
  _demo_argument "$path|$positional"
  _demo_offer "$REPLY" "$cur"
}

complete -F _demo demo
