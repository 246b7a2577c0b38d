import { DEFAULT_KEEP_BACKUPS } from '../io/backups.js';
import { loadProjectConfig } from '../io/config.js';
import { configureRules } from '../rules/configure.js';
import { rules as allRules } from '../rules/index.js';
import { NEAR_WINDOW } from '../rules/size/context-window-near.js';

/**
 * `--print-config`: the project config in effect, as JSON (like ESLint's): the file it came from
 * (null when none was found), every rule's severity once the config is applied, the ignore
 * patterns as matched (absolute), the provider, the backups kept, the size settings and the verify defaults. Nothing is scanned.
 */
export function printConfig(explicit: string | undefined): number {
  const config = loadProjectConfig(explicit, allRules.map((rule) => rule.meta.id));
  const configured = new Map(configureRules(allRules, config.rules).map((rule) => [rule.meta.id, rule.meta.severity]));
  const rules = Object.fromEntries(allRules.map((rule) => [rule.meta.id, configured.get(rule.meta.id) ?? 'off']));
  const effect = { configFile: config.path ?? null, rules, ignores: config.ignores, provider: config.provider ?? null, keepBackups: config.keepBackups ?? DEFAULT_KEEP_BACKUPS, size: { nearWindow: config.size?.nearWindow ?? NEAR_WINDOW }, verify: config.verify };
  process.stdout.write(`${JSON.stringify(effect, null, 2)}\n`);
  return 0;
}
