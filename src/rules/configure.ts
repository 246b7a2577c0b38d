import type { SeverityOverride } from '../io/config.js';
import type { Rule } from './rule.js';

/** The rules with a project's severities applied; rules set to `off` are left out. */
export function configureRules(rules: readonly Rule[], overrides: Record<string, SeverityOverride>): Rule[] {
  return rules.flatMap((rule) => {
    const severity = overrides[rule.meta.id];
    if (severity === undefined) return [rule];
    if (severity === 'off') return [];
    return [{ ...rule, meta: { ...rule.meta, severity } }];
  });
}
