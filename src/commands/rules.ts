import { UserError } from '../errors.js';
import { ruleDocument } from '../explain/rule-docs.js';
import { findRule, rules } from '../rules/index.js';
import { providerList } from '../explain/rule-docs.js';

/** `transcript-doctor rules [id]`: the rule list, or one rule's documentation. Returns the exit code. */
export function rulesCommand(id: string | undefined): number {
  process.stdout.write(id === undefined ? ruleTable() : ruleDoc(id));
  return 0;
}

function ruleTable(): string {
  const rows = rules.map((rule) => [rule.meta.id, rule.meta.category, rule.meta.severity, rule.meta.fix === 'none' ? '-' : rule.meta.fix, providerList(rule.meta.providers), rule.meta.description]);
  const headings = ['rule', 'category', 'severity', 'fix', 'providers'];
  const widths = headings.map((heading, column) => Math.max(...rows.map((row) => row[column]!.length), heading.length));
  const line = (row: string[]) => row.map((cell, i) => (i < headings.length ? cell.padEnd(widths[i]!) : cell)).join('  ').trimEnd();
  return [
    line([...headings, 'what it finds']),
    ...rows.map(line),
    '',
    'providers: where a provider-specific rule applies, with its evidence grade (C confirmed, D documented: errors; L library-only, U unconfirmed: warnings); all: every provider.', 'transcript-doctor rules <id> shows what a rule detects, why it breaks a session, and what repair does.', ''].join('\n');
}

function ruleDoc(id: string): string {
  const rule = findRule(id);
  if (rule === undefined) throw new UserError(`unknown rule "${id}" (transcript-doctor rules lists them)`);
  return ruleDocument(rule);
}
