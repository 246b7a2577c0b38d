import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/explain/catalogue.js';
import { ruleDocument } from '../../src/explain/rule-docs.js';
import { rules } from '../../src/rules/index.js';
import { ROOT } from '../cli/run-cli.js';
import { runCli } from '../cli/run-cli.js';

const DIR = join(ROOT, 'docs', 'rules');

describe('docs/rules', () => {
  it('has one file per rule and nothing else (node scripts/rule-docs.mjs writes them)', () => {
    expect(readdirSync(DIR).sort()).toEqual(rules.map((rule) => `${rule.meta.id}.md`).sort());
  });

  it.each(rules.map((rule) => [rule.meta.id, rule] as const))('%s.md is the rule’s documentation as the code has it', (id, rule) => {
    expect(readFileSync(join(DIR, `${id}.md`), 'utf8')).toBe(ruleDocument(rule));
  });

  it('lists, under each rule, exactly the catalogue texts that name it', () => {
    for (const rule of rules) {
      const doc = readFileSync(join(DIR, `${rule.meta.id}.md`), 'utf8');
      const section = doc.slice(doc.indexOf('## Provider errors it explains'));
      for (const entry of catalogue) {
        expect(section.includes(entry.text), `${rule.meta.id} and ${entry.ref}`).toBe(entry.rules.includes(rule.meta.id));
      }
    }
  });

  it('`rules <id>` prints the same document', async () => {
    const result = await runCli(['rules', 'missing-tool-result']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(readFileSync(join(DIR, 'missing-tool-result.md'), 'utf8'));
    expect(result.stdout).toContain('No tool output found for function call {id}.');
  });
});
