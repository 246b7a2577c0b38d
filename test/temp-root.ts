import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every test's temp files go into one folder for the run (test workers and the CLIs they start
 * inherit TMPDIR), removed when the run ends, so thousands of runs leave nothing in /tmp.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'td-test-run-'));
  process.env.TMPDIR = root;
  // The scan cache is on by default: the run's own, never the user's.
  process.env.XDG_CACHE_HOME = join(root, 'cache');
  return () => rmSync(root, { recursive: true, force: true });
}
