import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/model/analysis.js';
import { unusualEntries } from '../../src/model/unusual-entries.js';
import { loadBytes } from '../../src/pipeline/load-transcript.js';
import { runRules } from '../../src/pipeline/run-rules.js';
import { rules } from '../../src/rules/index.js';

const root = join(import.meta.dirname, '..', '..', 'fixtures');
const fixtures = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl')).sort();
/** The same rules, each handed every entry. */
const everyEntry = rules.map((rule) => ({ ...rule, entries: 'all' as const }));

describe('rules that look only at unusual entries', () => {
  it('are declared by most per-entry rules (else this test guards nothing)', () => {
    expect(rules.filter((rule) => rule.entries === 'unusual').length).toBeGreaterThanOrEqual(10);
  });

  it.each(fixtures)('miss nothing on %s: the findings equal those of a walk over every entry', (name) => {
    const transcript = loadBytes(readFileSync(join(root, name)));
    expect(runRules(analyze(transcript), rules)).toEqual(runRules(analyze(transcript), everyEntry));
  });

  it('skip plain entries: a healthy session visits only the few lines with rare facts (header, compaction, a change of provider)', () => {
    const entries = loadBytes(readFileSync(join(root, 'pi', 'healthy.jsonl'))).entries;
    const unusual = [...unusualEntries(entries)];
    expect(entries.length).toBeGreaterThan(20);
    expect(unusual.map((i) => entries.kind(i)).slice(0, 2)).toEqual(['header', 'message']);
    expect(unusual.every((i) => entries.rare.has(i))).toBe(true);
    expect(unusual.length).toBeLessThan(entries.length / 4);
  });

  it('list an entry once, in file order, whatever marks it', () => {
    const transcript = loadBytes(readFileSync(join(root, 'demo', 'f787cf70-51e3-4c8b-9204-2dfbea70be02.jsonl')));
    const unusual = [...unusualEntries(transcript.entries)];
    expect(unusual.length).toBeGreaterThan(0);
    expect(unusual).toEqual([...new Set(unusual)].sort((a, b) => a - b));
  });
});
