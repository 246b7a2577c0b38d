import { createHash } from 'node:crypto';
import type { Rule } from './rule.js';

/**
 * A short fingerprint of which rules ran at which severity: reports from shards that ran with
 * different rules or configs cannot be merged into one honest result.
 */
export function ruleSetFingerprint(rules: readonly Rule[]): string {
  const entries = rules.map((rule) => `${rule.meta.id}=${rule.meta.severity}`).sort();
  return createHash('sha256').update(entries.join('\n')).digest('hex').slice(0, 16);
}
