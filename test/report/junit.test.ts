import { describe, expect, it } from 'vitest';
import { junitReporter } from '../../src/report/junit.js';
import { reports } from './fixtures.js';
import { expectGolden } from './golden.js';

describe('junit reporter', () => {
  it('matches the golden file', () => {
    expectGolden('junit.xml', junitReporter(reports, { color: false }));
  });

  it('drops characters XML 1.0 cannot hold and keeps astral ones', () => {
    const message = 'a\u0000b\u001bc\uD800d\uFFFEe 🩺 \u0085';
    const output = junitReporter([{ path: 'x.jsonl', format: 'pi', findings: [{ rule: 'nul-bytes', severity: 'error', line: 1, pointer: '', message }] }], {
      color: false,
    });
    expect(output).toContain('message="abcde 🩺 \u0085"');
    expect(output).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\uD800\uFFFE]/);
  });

  it('writes an empty test run for no files', () => {
    expect(junitReporter([], { color: false })).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="transcript-doctor" tests="0" failures="0">\n</testsuites>\n');
  });
});
