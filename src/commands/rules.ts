import { UserError } from '../errors.js';
import { ruleDocument } from '../explain/rule-docs.js';
import { findRule, rules } from '../rules/index.js';
import { providerList } from '../explain/rule-docs.js';

/** `transcript-doctor rules [id]`: the rule list, or one rule's documentation. Returns the exit code. */
export function rulesCommand(id: string | undefined): number {
  process.stdout.write(id === undefined ? ruleTable() : ruleDoc(id));
  return 0;
}

/** The table fits a terminal this wide; `rules <id>` has each rule's documentation. */
const TABLE_WIDTH = 100;

function ruleTable(): string {
  const headings = ['rule', 'category', 'severity', 'fix'];
  const rows = rules.map((rule) => [rule.meta.id, rule.meta.category, rule.meta.severity, rule.meta.fix === 'none' ? '-' : rule.meta.fix]);
  const widths = headings.map((heading) => heading.length);
  for (const row of rows) row.forEach((cell, column) => (widths[column] = Math.max(widths[column]!, cell.length)));
  const left = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ') + '  ';
  const margin = ' '.repeat(left(headings).length);
  const lines = [`${left(headings)}what it finds`];
  rules.forEach((rule, i) => {
    wrap(rule.meta.description, TABLE_WIDTH - margin.length).forEach((part, n) => lines.push((n === 0 ? left(rows[i]!) : margin) + part));
    // Most rules apply to every provider; the others say which on a line of their own, under the row.
    if (rule.meta.providers !== undefined) {
      for (const part of wrap(`providers: ${providerList(rule.meta.providers).replaceAll(',', ', ')}`, TABLE_WIDTH - 2)) lines.push(`  ${part}`);
    }
  });
  return [
    ...lines,
    '',
    'providers: where a provider-specific rule applies, with its evidence grade: C confirmed and',
    'D documented give errors, L library-only and U unconfirmed warnings. The other rules apply to all.',
    'transcript-doctor rules <id>: what a rule detects, why it breaks a session, and what repair does.',
    '',
  ].join('\n');
}

/** Words in lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines;
}

function ruleDoc(id: string): string {
  const rule = findRule(id);
  if (rule === undefined) throw new UserError(`unknown rule "${id}" (transcript-doctor rules lists them)`);
  return ruleDocument(rule);
}
