import type { SeverityOverride } from '../io/config.js';
import type { Rule, RuleContext } from './rule.js';

/**
 * The rules with a project's severities applied; rules set to `off` are left out. A configured
 * severity holds for every report of the rule, also those the rule would make milder on its own
 * (a blank text block outside Claude Code); findings off the replayed path are still one lower.
 */
export function configureRules(rules: readonly Rule[], overrides: Record<string, SeverityOverride>): Rule[] {
  return rules.flatMap((rule) => {
    const severity = overrides[rule.meta.id];
    if (severity === undefined) return [rule];
    if (severity === 'off') return [];
    const plain = (context: RuleContext): RuleContext => ({ analysis: context.analysis, report: (problem) => context.report({ ...problem, severity: undefined }) });
    const configured: Rule = { meta: { ...rule.meta, severity } };
    if (rule.check !== undefined) configured.check = (context) => rule.check!(plain(context));
    if (rule.checkEntry !== undefined) configured.checkEntry = (entry, context) => rule.checkEntry!(entry, plain(context));
    madeFrom.set(configured, rule);
    return [configured];
  });
}

/** The rule each configured one was made from. */
const madeFrom = new WeakMap<Rule, Rule>();

/**
 * The overrides that make `rules` from `base` again (configureRules), as plain data another thread
 * can take; undefined when they are not `base` configured (a rule of someone else's, another order).
 */
export function overridesOf(rules: readonly Rule[], base: readonly Rule[]): Record<string, SeverityOverride> | undefined {
  const overrides: Record<string, SeverityOverride> = {};
  let at = 0;
  for (const rule of base) {
    const used = rules[at];
    if (used === rule) at += 1;
    else if (used !== undefined && madeFrom.get(used) === rule) {
      overrides[rule.meta.id] = used.meta.severity;
      at += 1;
    } else overrides[rule.meta.id] = 'off';
  }
  return at === rules.length ? overrides : undefined;
}
