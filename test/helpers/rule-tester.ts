import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/pipeline/scan.js';
import type { Finding } from '../../src/pipeline/finding.js';
import type { Rule } from '../../src/rules/rule.js';
import type { ProviderId } from '../../src/providers/provider-id.js';

export interface ValidCase {
  name: string;
  jsonl: string | Buffer;
  /** Judge against this provider, as `--provider` does. */
  provider?: ProviderId;
}

export interface ExpectedFinding {
  line: number;
  severity?: Finding['severity'];
  pointer?: string;
  /** Substring or pattern the message must contain. */
  message?: string | RegExp;
  providerError?: string | RegExp;
}

export interface InvalidCase extends ValidCase {
  findings: ExpectedFinding[];
}

export async function findingsOf(rule: Rule, jsonl: string | Buffer, provider?: ProviderId): Promise<Finding[]> {
  const report = await scanSource('test.jsonl', Readable.from([Buffer.from(jsonl)]), [rule], undefined, { provider });
  return report.findings;
}

/** ESLint RuleTester's shape: transcripts that must pass, and transcripts with exact findings. */
export function testRule(rule: Rule, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  describe(rule.meta.id, () => {
    it('has complete metadata', () => {
      expect(rule.meta.id).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
      expect(rule.meta.description).toMatch(/\.$/);
      expect(rule.meta.docs).toContain('## What it does');
      expect(rule.meta.docs).toContain('## Why is this bad?');
      expect(rule.meta.docs).toContain('## Fix');
    });
    for (const valid of cases.valid) {
      it(`valid: ${valid.name}`, async () => {
        expect(await findingsOf(rule, valid.jsonl, valid.provider)).toEqual([]);
      });
    }
    for (const invalid of cases.invalid) {
      it(`invalid: ${invalid.name}`, async () => {
        const found = await findingsOf(rule, invalid.jsonl, invalid.provider);
        expect(found.map((f) => f.line), JSON.stringify(found, null, 1)).toEqual(invalid.findings.map((f) => f.line));
        invalid.findings.forEach((want, i) => {
          const got = found[i]!;
          expect(got.rule).toBe(rule.meta.id);
          expect(got.severity).toBe(want.severity ?? rule.meta.severity);
          if (want.pointer !== undefined) expect(got.pointer).toBe(want.pointer);
          if (want.message !== undefined) expect(got.message).toMatch(want.message);
          if (want.providerError !== undefined) expect(got.providerError ?? '').toMatch(want.providerError);
        });
      });
    }
  });
}
