import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { FileReport } from '../../src/pipeline/finding.js';
import { emptyCounts } from '../../src/repair/plan.js';
import { sarifReporter } from '../../src/report/sarif.js';
import { reports } from './fixtures.js';
import { expectGolden } from './golden.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** RFC 3986 characters only, and a colon before the first '/', '?' or '#' must end a scheme. */
function isUriReference(value: string): boolean {
  if (!/^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9A-Fa-f]{2})*$/.test(value)) return false;
  const head = /^[^/?#]*:/.exec(value);
  return head === null || /^[A-Za-z][A-Za-z0-9+.-]*:$/.test(head[0]);
}

/**
 * The official SARIF 2.1.0 schema (draft-07), copied from a registry package: see README.md here.
 * Its formats are checked by hand so ajv is the only dependency; the reporter writes no date-time.
 */
const validate = new Ajv({
  allErrors: true,
  formats: {
    uri: (value: string) => isUriReference(value) && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value),
    'uri-reference': isUriReference,
    'date-time': true,
  },
}).compile(JSON.parse(readFileSync(new URL('./sarif-schema-2.1.0.json', import.meta.url), 'utf8')));

function sarif(input: readonly FileReport[]): any {
  const output = sarifReporter(input, { color: false });
  expect(validate(JSON.parse(output)), JSON.stringify(validate.errors, null, 2)).toBe(true);
  return JSON.parse(output);
}

describe('sarif reporter', () => {
  it('matches the golden file (driver version stamped from package.json)', () => {
    const output = sarifReporter(reports, { color: false });
    const stamp = (v: string) => `"informationUri": "https://www.npmjs.com/package/transcript-doctor",\n          "version": "${v}",`;
    expect(output).toContain(stamp(version));
    expectGolden('sarif.json', output.replace(stamp(version), stamp('<package.json version>')));
  });

  it('validates against the SARIF 2.1.0 schema', () => {
    const log = sarif(reports);
    const run = log.runs[0];
    expect(run.tool.driver.version).toBe(version);
    // Each rule once, in rules order, then verify's; every result points at its rule.
    expect(run.tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual([
      'invalid-json',
      'missing-final-newline',
      'unknown-format',
      'missing-tool-result',
      'blank-user-message',
      'empty-text-block',
      'verify/goal_missed',
      'verify/rule_violation',
      'verify/error',
    ]);
    for (const result of run.results) expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
  });

  it('has a validator that rejects what code scanning would', () => {
    const location = { physicalLocation: { artifactLocation: { uri: 'a b:c.jsonl' }, region: { startLine: 0 } } };
    const log = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, locations: [location] }] }] };
    expect(validate(log)).toBe(false);
    expect(validate.errors?.map((error) => error.instancePath).sort()).toEqual([
      '/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri',
      '/runs/0/results/0/locations/0/physicalLocation/region/startLine',
    ]);
  });

  it('is valid with nothing to report', () => {
    expect(sarif([]).runs[0]).toMatchObject({ results: [], tool: { driver: { rules: [] } } });
  });

  it('points a finding without a line at the file, and a repair piped to stdout at its source', () => {
    const report: FileReport = {
      path: 'dir/x:y.jsonl',
      format: 'pi',
      repair: { changed: true, counts: emptyCounts(), lines: { dropped: [], moved: [], rewritten: [] }, output: '-' },
      findings: [{ rule: 'nul-bytes', severity: 'error', line: 0, pointer: '', message: 'NUL bytes.' }],
    };
    const location = sarif([report]).runs[0].results[0].locations[0].physicalLocation;
    expect(location).toEqual({ artifactLocation: { uri: 'dir/x%3Ay.jsonl' } });
  });
});
