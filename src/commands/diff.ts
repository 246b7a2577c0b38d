import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { fsName } from '../io/byte-names.js';
import type { Input } from '../io/inputs.js';
import { terminalText } from '../report/terminal-text.js';
import { unifiedDiff } from '../report/unified-diff.js';
import { runRewrite, type PreparedRewrite } from '../run/rewrite.js';
import { sourcesOf } from '../run/sources.js';

/**
 * `repair --diff` and `canonicalize --diff` (Ruff's): each file is rewritten into a scratch
 * folder, never in place, and the lines that would change are printed as a unified diff. Exit 1
 * when some file would change, 0 when none would, 2 when a file could not be read.
 */
export async function diffCommand(inputs: readonly Input[], prepared: PreparedRewrite, verb: 'repair' | 'canonicalize'): Promise<number> {
  if (inputs.some((input) => input.kind === 'stdin')) throw new UserError('--diff compares files: it cannot read standard input twice');
  const scratch = mkdtempSync(join(tmpdir(), 'transcript-doctor-diff-'));
  let changed = 0;
  let failed = 0;
  try {
    for (const [i, input] of inputs.entries()) {
      const output = join(scratch, `${i}.jsonl`);
      const { reports, failures } = await runRewrite(sourcesOf([input], process.stdin), prepared, { output }, verb, undefined);
      for (const failure of failures) process.stderr.write(`transcript-doctor: ${terminalText(failure.message)}\n`);
      failed += failures.length;
      if (reports[0]?.repair?.changed !== true) continue;
      changed += 1;
      const name = terminalText(input.path);
      process.stdout.write(unifiedDiff(readFileSync(fsName(input.path), 'utf8'), readFileSync(output, 'utf8'), `a/${name}`, `b/${name}`));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return failed > 0 ? 2 : changed > 0 ? 1 : 0;
}
