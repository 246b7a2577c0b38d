import { UserError } from '../errors.js';
import { slimRewrite } from '../pipeline/slim-rewrite.js';
import { parseProviderId } from '../providers/provider-id.js';
import { parseTarget } from '../slim/options.js';
import { rewriteCommand, type RewriteOptions } from './rewrite.js';

export interface SlimCommandOptions extends RewriteOptions {
  target?: string;
  keepTurns?: string;
  provider?: string;
}

/** `transcript-doctor slim`: returns the exit code. */
export function slimCommand(paths: readonly string[], options: SlimCommandOptions): Promise<number> {
  const provider = options.provider === undefined ? undefined : parseProviderId(options.provider, '--provider');
  const target = options.target === undefined ? undefined : parseTarget(options.target);
  if (options.target !== undefined && target === undefined) throw new UserError(`--target must be a number of tokens or a percentage of the context window (e.g. 120000 or 60%), not "${options.target}"`);
  const keepTurns = options.keepTurns === undefined ? undefined : Number(options.keepTurns);
  if (keepTurns !== undefined && (!/^\d+$/.test(options.keepTurns!) || !Number.isSafeInteger(keepTurns))) throw new UserError(`--keep-turns must be a whole number, not "${options.keepTurns}"`);
  return rewriteCommand(paths, options, { ...slimRewrite({ target, keepTurns, provider }), provider }, 'slim');
}
