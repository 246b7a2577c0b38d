import { buildProgram } from '../../src/cli.js';
import { describeProgram } from '../../src/commands/describe-program.js';
import { commandsOf } from '../../src/report/completion/program-shape.js';

/** The real program as completion scripts see it, each command with the words that reach it. */
export const PROGRAM = describeProgram(buildProgram(() => {}));
export const COMMANDS = commandsOf(PROGRAM);
