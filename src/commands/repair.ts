import { UserError } from '../errors.js';
import { parseProviderId } from '../providers/provider-id.js';
import { repairRewrite } from '../pipeline/rewrite.js';
import type { RepairMode } from '../repair/plan.js';
import { rewriteCommand, type RewriteOptions } from './rewrite.js';

const MODES: readonly RepairMode[] = ['discard', 'synthetic'];

/** `transcript-doctor repair`: returns the exit code. */
export function repairCommand(paths: readonly string[], options: RewriteOptions & { mode?: string; provider?: string }): Promise<number> {
  const provider = options.provider === undefined ? undefined : parseProviderId(options.provider, '--provider');
  return rewriteCommand(paths, options, { ...repairRewrite(resolveMode(options.mode)), provider }, 'repair');
}

/** `--mode`, else OPENCLAW_TOOL_GUARD_ABORT_MODE (seed 001), else discard. */
export function resolveMode(flag: string | undefined): RepairMode {
  const fromEnv = process.env.OPENCLAW_TOOL_GUARD_ABORT_MODE;
  const value = flag ?? (fromEnv === '' ? undefined : fromEnv) ?? 'discard';
  if (!MODES.includes(value as RepairMode)) {
    const source = flag === undefined ? 'OPENCLAW_TOOL_GUARD_ABORT_MODE' : '--mode';
    throw new UserError(`${source} must be discard or synthetic, not "${value}"`);
  }
  return value as RepairMode;
}
