/**
 * Reading an agent's own command line, as its option parser would: `--name value`,
 * `--name=value`, `-n value`. Everything after `--` is an operand, never an option.
 */

function options(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}

/** Whether one of these flags is given. */
export function hasFlag(args: readonly string[], names: readonly string[]): boolean {
  return options(args).some((arg) => names.includes(arg));
}

/**
 * The value of the last of these options given (the one a parser keeps): a string, `null` when
 * the option stands alone (nothing, or another option, follows it: an optional value left out),
 * or undefined when none of them is given.
 */
export function optionValue(args: readonly string[], names: readonly string[]): string | null | undefined {
  const given = options(args);
  let value: string | null | undefined;
  for (let i = 0; i < given.length; i++) {
    const arg = given[i]!;
    const long = names.find((name) => name.startsWith('--') && arg.startsWith(`${name}=`));
    if (long !== undefined) value = arg.slice(long.length + 1);
    else if (names.includes(arg)) {
      const next = given[i + 1];
      value = next === undefined || next.startsWith('-') ? null : next;
      if (value !== null) i++;
    }
  }
  return value;
}

/** The operands (arguments that are not options or option values), given which options take a value. */
export function operands(args: readonly string[], takingValue: readonly string[]): string[] {
  const found: string[] = [];
  const end = args.indexOf('--');
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (i === end) {
      found.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') found.push(arg);
    else if (takingValue.includes(arg)) i++;
  }
  return found;
}

/** A UUID, the shape of every session id these agents make. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
