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
    return [configured];
  });
}
