import type { Argument, Option } from 'commander';

/**
 * The words an option or argument takes, for shell completion, when they are checked by the
 * command rather than by commander's choices (so help and error messages stay the command's own).
 */
const offered = new WeakMap<Option | Argument, readonly string[]>();

/** Records the words `target` takes; returns it, to chain like commander's own methods. */
export function offering<T extends Option | Argument>(target: T, values: readonly string[]): T {
  offered.set(target, values);
  return target;
}

/** The words an option or argument takes: commander's choices, else those recorded here. */
export function offeredValues(target: Option | Argument): readonly string[] | undefined {
  return target.argChoices ?? offered.get(target);
}

/** Repeatable options collect their values in order; the completion scripts let such an option be given again. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
