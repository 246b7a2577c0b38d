#compdef demo
# zsh completion for demo, made from its commands by `demo completion zsh`.

_demo() {
  local curcontext="$curcontext" state line
  local -a subcommands
  subcommands=(
    'check:Check files'
    'hooks:Hooks.'
    'run:Run a command.'
  )
  _arguments -C \
    '(-v --version)-v[print the version]' \
    '(-v --version)--version[print the version]' \
    '1: :->subcommand' \
    '*:: :->argument'
  case $state in
    subcommand) _describe -t commands command subcommands ;;
    argument)
      case $words[1] in
      'check') _demo__check ;;
      'hooks') _demo__hooks ;;
      'run') _demo__run ;;
      esac ;;
  esac
}

_demo__check() {
  _arguments -s -S \
    '(-m --mode)-m[what to do]:mode:(keep drop)' \
    '(-m --mode)--mode=[what to do]:mode:(keep drop)' \
    '(-o --out)-o[where to write \[a file\]]:out:_files' \
    '(-o --out)--out=[where to write \[a file\]]:out:_files' \
    '*--tag=[a tag, it'\''s repeatable]:tag: ' \
    '--cache-dir=[a folder]:cache-dir:_files -/' \
    '--fast[go fast]' \
    ':error: ' \
    '*:paths:_files'
}

_demo__hooks() {
  local curcontext="$curcontext" state line
  local -a subcommands
  subcommands=(
    'add:Add one'
  )
  _arguments -C \
    '1: :->subcommand' \
    '*:: :->argument'
  case $state in
    subcommand) _describe -t commands command subcommands ;;
    argument)
      case $words[1] in
      'add') _demo__hooks__add ;;
      esac ;;
  esac
}

_demo__hooks__add() {
  _arguments -s -S \
    '--dry-run[write nothing]' \
    ':agent:(alpha beta)'
}

_demo__run() {
  _arguments -s -S \
    '*::command:_normal'
}

if [[ "${funcstack[1]}" == _demo ]]; then
  _demo "$@"
else
  compdef _demo demo
fi
