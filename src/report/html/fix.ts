import { rules } from '../../rules/index.js';
import type { RuleMeta } from '../../rules/rule.js';

export interface FixAdvice {
  /** Commands to run, in order; none when no command fixes it. */
  commands: string[];
  /** How safe the fix is, in words. */
  safety: string;
  /** The command that explains the rule. */
  docs?: string;
}

const META = new Map<string, RuleMeta>(rules.map((rule) => [rule.meta.id, rule.meta]));

/** A path a user can paste into a POSIX shell: quoted when it needs to be, never read as an option. */
export function shellPath(path: string): string {
  if (path === '-') return '<file>';
  const safe = path.startsWith('-') ? `./${path}` : path;
  return /^[\w@%+=:,./-]+$/.test(safe) ? safe : `'${safe.replace(/'/g, `'\\''`)}'`;
}

/**
 * What fixes a finding, per the rule's fix safety: a safe fix is one command (`canonicalize` for
 * shape rules, `repair` otherwise); an unsafe one shows the dry run first, since it may change
 * what the model sees; a rule without a fix points at its documentation.
 */
export function fixAdvice(ruleId: string, path: string): FixAdvice {
  const meta = META.get(ruleId);
  if (meta === undefined) return { commands: [], safety: 'no automatic fix' };
  const file = shellPath(path);
  const docs = `transcript-doctor rules ${meta.id}`;
  if (meta.fix === 'none') return { commands: [], safety: 'no automatic fix: left for a person', docs };
  const command = meta.category === 'shape' ? 'canonicalize' : 'repair';
  if (meta.fix === 'safe') return { commands: [`transcript-doctor ${command} --in-place ${file}`], safety: 'safe fix: keeps the meaning of the session', docs };
  return {
    commands: [`transcript-doctor ${command} --dry-run ${file}`, `transcript-doctor ${command} --in-place ${file}`],
    safety: 'unsafe fix: may change what the model sees; read the dry run first',
    docs,
  };
}
