import { bashCompletion } from './bash.js';
import { fishCompletion } from './fish.js';
import type { CompletedCommand } from './program-shape.js';
import type { Shell } from './shells.js';
import { zshCompletion } from './zsh.js';

export type { CompletedArgument, CompletedCommand, CompletedOption, CompletedValue, ValueKind } from './program-shape.js';
export { SHELLS, type Shell } from './shells.js';

const GENERATORS: Readonly<Record<Shell, (program: CompletedCommand, bin: string) => string>> = {
  bash: bashCompletion,
  zsh: zshCompletion,
  fish: fishCompletion,
};

/** The completion script of `program` for `shell`, for the command named `bin`. */
export function completionScript(shell: Shell, program: CompletedCommand, bin: string): string {
  return GENERATORS[shell](program, bin);
}
