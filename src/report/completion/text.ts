/** Text helpers the shell generators share. */

/** A help line short enough for a completion menu: its first clause, at most 80 characters. */
export function summary(description: string): string {
  const first = description.split(/; | \(|\. /)[0]!.trim();
  return first.length <= 80 ? first : `${first.slice(0, 79).trimEnd()}…`;
}

/** A word in single quotes for bash and zsh. */
export function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A word in single quotes for fish, which escapes inside them instead. */
export function fishQuoted(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A shell function name for a command path: `hooks install` → `hooks_install`. */
export function functionSuffix(path: readonly string[]): string {
  return path.map((name) => name.replace(/[^A-Za-z0-9]/g, '_')).join('__');
}
