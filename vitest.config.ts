import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { copilotBinary } from './test/interop/copilot-resume.js';

// The HTML page's checks in a real browser need Debian's chromium. .ci/run installs it and asks for
// them (TRANSCRIPT_DOCTOR_BROWSER=required); on a machine without one, `npm test` says so and runs the rest.
const BROWSER_TESTS = 'test/report/html/browser.test.ts';
const chromium = process.env.TRANSCRIPT_DOCTOR_CHROMIUM ?? '/usr/bin/chromium';
const withBrowser = existsSync(chromium) || process.env.TRANSCRIPT_DOCTOR_BROWSER === 'required';
if (!withBrowser) console.log(`html page checks in a real browser: not run (no chromium at ${chromium}; .ci/run installs it, or set TRANSCRIPT_DOCTOR_CHROMIUM)`);

// Copilot CLI's interop test runs the client's own binary, which @github/copilot installs per
// platform (test/interop); where it has none for this one, `npm test` says so and runs the rest.
const COPILOT_TESTS = 'test/interop/copilot-interop.test.ts';
const withCopilot = copilotBinary(resolve('test', 'interop')) !== undefined;
if (!withCopilot) console.log(`Copilot CLI interop: not run (no @github/copilot binary for ${process.platform}-${process.arch} in test/interop/node_modules)`);
// The schema check reads the schema out of that binary, which it knows how to open as Linux's ELF only.
const COPILOT_SCHEMA_TESTS = 'test/interop/copilot-schema.test.ts';
const withCopilotSchema = withCopilot && process.platform === 'linux';
if (!withCopilotSchema) console.log(`Copilot CLI shipped-schema check: not run (${withCopilot ? `its binary for ${process.platform} is not an ELF file, the only kind test/interop/copilot-schema.ts reads` : `no @github/copilot binary for ${process.platform}-${process.arch}`})`);

// The zsh and fish completion checks run those shells (bash's always run); where one is not
// installed, `npm test` says so and runs the rest. .ci/run installs both.
const SHELL_TESTS: Record<string, string> = { zsh: 'test/cli/completion-zsh.test.ts', fish: 'test/cli/completion-fish.test.ts' };
const missingShells = Object.keys(SHELL_TESTS).filter((shell) => spawnSync(shell, ['-c', 'exit 0']).status !== 0);
for (const shell of missingShells) console.log(`${shell} completion checks: not run (no ${shell} on the PATH; .ci/run installs it)`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(withBrowser ? [] : [BROWSER_TESTS]), ...(withCopilot ? [] : [COPILOT_TESTS]), ...(withCopilotSchema ? [] : [COPILOT_SCHEMA_TESTS]), ...missingShells.map((shell) => SHELL_TESTS[shell]!)],
    testTimeout: 30_000,
    globalSetup: ['test/temp-root.ts'],
    // The JSON report feeds the one-line summary .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'node_modules/.vitest-results.json' }]],
  },
});
