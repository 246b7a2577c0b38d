import { UserError } from '../errors.js';
import { slimRewrite } from '../pipeline/slim-rewrite.js';
import { parseProviderId } from '../providers/provider-id.js';
import { parseTarget } from '../slim/options.js';
import { terminalText } from '../report/terminal-text.js';
import { prepareSummarizer, type SummarizeInput } from '../run/summarize.js';
import { rewriteCommand, type RewriteOptions } from './rewrite.js';

export interface SlimCommandOptions extends RewriteOptions, SummarizeInput {
  target?: string;
  keepTurns?: string;
  provider?: string;
}

/** `transcript-doctor slim`: returns the exit code. */
export async function slimCommand(paths: readonly string[], options: SlimCommandOptions): Promise<number> {
  const provider = options.provider === undefined ? undefined : parseProviderId(options.provider, '--provider');
  const target = options.target === undefined ? undefined : parseTarget(options.target);
  if (options.target !== undefined && target === undefined) throw new UserError(`--target must be a number of tokens or a percentage of the context window (e.g. 120000 or 60%), not "${options.target}"`);
  const keepTurns = options.keepTurns === undefined ? undefined : Number(options.keepTurns);
  if (keepTurns !== undefined && (!/^\d+$/.test(options.keepTurns!) || !Number.isSafeInteger(keepTurns))) throw new UserError(`--keep-turns must be a whole number, not "${options.keepTurns}"`);
  const say = (message: string) => process.stderr.write(`transcript-doctor: ${terminalText(message)}\n`);
  let summarize = options.printConfig ? undefined : await prepareSummarizer(options, options.config, say);
  // Showing what would change sends nothing anywhere: the plan shown has the local summary.
  if (summarize !== undefined && (options.dryRun || options.diff)) {
    say(`--summarize asks no model with ${options.dryRun ? '--dry-run' : '--diff'}; a compaction shown carries the summary written without one`);
    summarize = undefined;
  }
  return rewriteCommand(paths, options, { ...slimRewrite({ target, keepTurns, provider }, summarize), provider }, 'slim');
}
