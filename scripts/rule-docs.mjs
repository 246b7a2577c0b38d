// Writes docs/rules/<id>.md for every rule from the built code (npm run build first):
// the rule's documentation and the provider errors `explain` maps to it.
// test/explain/rule-docs.test.ts fails when the files and the code disagree.
//
//   node scripts/rule-docs.mjs

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ruleDocument } from '../dist/explain/rule-docs.js';
import { rules } from '../dist/rules/index.js';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'rules');
fs.mkdirSync(DIR, { recursive: true });
for (const rule of rules) fs.writeFileSync(path.join(DIR, `${rule.meta.id}.md`), ruleDocument(rule));
console.log(`wrote ${rules.length} rule docs to ${path.relative(process.cwd(), DIR) || '.'}`);
