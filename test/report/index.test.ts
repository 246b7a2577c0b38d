import { describe, expect, it } from 'vitest';
import { loadReporter, reporterNames } from '../../src/report/index.js';

describe('reporter registry', () => {
  it.each(['sarif', 'github', 'junit', 'ndjson'])('loads %s', async (name) => {
    expect(reporterNames).toContain(name);
    expect(typeof (await loadReporter(name))).toBe('function');
  });
});
