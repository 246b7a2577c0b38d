import { describe, expect, it } from 'vitest';
import { configureRules, overridesOf } from '../../src/rules/configure.js';
import { rules } from '../../src/rules/index.js';
import type { Rule } from '../../src/rules/rule.js';

const ids = (list: readonly Rule[]) => list.map((rule) => `${rule.meta.id}:${rule.meta.severity}`);

// Another thread makes the rules again from plain data (see pipeline/line-work.ts): the overrides must make exactly these rules.
describe('overridesOf: the configuration that makes a rule list again', () => {
  it('is empty for the built-in rules as they are', () => {
    expect(overridesOf(rules, rules)).toEqual({});
  });

  it('gives back what configureRules was given, and remakes the same list', () => {
    const given = { 'duplicate-tool-result': 'off', 'missing-tool-result': 'warning', 'invalid-json': 'error' } as const;
    const configured = configureRules(rules, given);
    const overrides = overridesOf(configured, rules)!;
    expect(overrides).toEqual(given);
    expect(ids(configureRules(rules, overrides))).toEqual(ids(configured));
  });

  it('says nothing for a rule of someone else’s, or a list in another order', () => {
    const own: Rule = { meta: { ...rules[0]!.meta, id: 'my-rule' }, check: () => undefined };
    expect(overridesOf([...rules, own], rules)).toBeUndefined();
    expect(overridesOf([...rules].reverse(), rules)).toBeUndefined();
    // A copy of a built-in rule is not that rule: its checks may be anything.
    expect(overridesOf([{ ...rules[0]! }, ...rules.slice(1)], rules)).toBeUndefined();
  });
});
