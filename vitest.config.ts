import { existsSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

// The HTML page's checks in a real browser need Debian's chromium. .ci/run installs it and asks for
// them (TRANSCRIPT_DOCTOR_BROWSER=required); on a machine without one, `npm test` says so and runs the rest.
const BROWSER_TESTS = 'test/report/html/browser.test.ts';
const chromium = process.env.TRANSCRIPT_DOCTOR_CHROMIUM ?? '/usr/bin/chromium';
const withBrowser = existsSync(chromium) || process.env.TRANSCRIPT_DOCTOR_BROWSER === 'required';
if (!withBrowser) console.log(`html page checks in a real browser: not run (no chromium at ${chromium}; .ci/run installs it, or set TRANSCRIPT_DOCTOR_CHROMIUM)`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: withBrowser ? configDefaults.exclude : [...configDefaults.exclude, BROWSER_TESTS],
    testTimeout: 30_000,
    globalSetup: ['test/temp-root.ts'],
    // The JSON report feeds the one-line summary .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'node_modules/.vitest-results.json' }]],
  },
});
