import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    globalSetup: ['test/temp-root.ts'],
    // The JSON report feeds the one-line summary .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'node_modules/.vitest-results.json' }]],
  },
});
