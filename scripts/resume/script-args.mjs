// Option parsing for the resume scripts (scripts/slim-resume.mjs, scripts/client-resume.mjs): a
// mistake is one line naming the script, then its usage, and exit code 2.
import { parseArgs } from 'node:util';

/** Prints `<script>: <message>` on standard error and exits 2. */
export function failer(script) {
  return (message) => {
    console.error(`${script}: ${message}`);
    process.exit(2);
  };
}

/** node:util parseArgs over the command line; an unknown or malformed option fails with the usage. */
export function scriptArgs(fail, usage, config) {
  try {
    return parseArgs(config);
  } catch (error) {
    return fail(`${error.message}\n${usage}`);
  }
}
