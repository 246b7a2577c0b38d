import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { fsName } from '../io/byte-names.js';
import type { Input } from '../io/inputs.js';
import type { FileReport } from '../pipeline/finding.js';
import { terminalText } from '../report/terminal-text.js';
import { unifiedByteDiff } from '../report/unified-diff.js';
import type { Failure } from '../run/scan.js';
import { runRewrite, type PreparedRewrite } from '../run/rewrite.js';
import { sourcesOf } from '../run/sources.js';

export interface DiffResult {
  reports: FileReport[];
  failures: Failure[];
  /** How many files would change: their bytes differ from what the rewrite writes. */
  changed: number;
}

/**
 * `repair --diff` and `canonicalize --diff` (Ruff's): each file is rewritten into a scratch
 * folder, never in place, and the bytes that would change are printed as a unified diff, which
 * `patch` or `git apply` turns into exactly what the rewrite writes. The reports are the command's to emit.
 */
export async function diffCommand(inputs: readonly Input[], prepared: PreparedRewrite, verb: 'repair' | 'canonicalize' | 'slim'): Promise<DiffResult> {
  if (inputs.some((input) => input.kind === 'stdin')) throw new UserError('--diff compares files: it cannot read standard input twice');
  const scratch = mkdtempSync(join(tmpdir(), 'transcript-doctor-diff-'));
  const result: DiffResult = { reports: [], failures: [], changed: 0 };
  try {
    for (const [i, input] of inputs.entries()) {
      const output = join(scratch, `${i}.jsonl`);
      const { reports, failures } = await runRewrite(sourcesOf([input], process.stdin), prepared, { output }, verb, undefined);
      for (const failure of failures) process.stderr.write(`transcript-doctor: ${terminalText(failure.message)}\n`);
      result.failures.push(...failures);
      // Written to scratch only: the report reads as a dry run's, with no output named.
      result.reports.push(...reports.map(({ repair, ...report }) => (repair === undefined ? report : { ...report, repair: { ...repair, output: undefined } })));
      if (reports[0]?.repair?.changed !== true) continue;
      const name = terminalText(input.path);
      const diff = unifiedByteDiff(readFileSync(fsName(input.path)), readFileSync(output), `a/${name}`, `b/${name}`);
      if (diff.length === 0) continue;
      result.changed += 1;
      process.stdout.write(diff);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return result;
}
