import { UserError } from '../errors.js';
import { expandInputs } from '../io/inputs.js';
import type { FileReport } from '../pipeline/finding.js';
import { canonicalRewrite, checkCanonical } from '../pipeline/rewrite.js';
import { emitReports, planReports } from './reporting.js';
import { rewriteCommand, type RewriteOptions } from './rewrite.js';

/** `transcript-doctor canonicalize`: returns the exit code. */
export async function canonicalizeCommand(paths: readonly string[], options: RewriteOptions & { check?: boolean }): Promise<number> {
  if (!options.check) return rewriteCommand(paths, options, canonicalRewrite, 'canonicalize');
  if (options.inPlace || options.output !== undefined || options.dryRun) throw new UserError('--check writes nothing; drop --in-place, --output and --dry-run');
  const destinations = await planReports(options);
  if (paths.length === 0) throw new UserError('canonicalize needs files, folders or - (standard input)');
  const reports: FileReport[] = [];
  for (const input of await expandInputs(paths)) reports.push(await checkCanonical(input.path, input.kind === 'stdin' ? process.stdin : undefined));
  await emitReports(destinations, reports, { color: options.color });
  // Like prettier --check: any line that would change fails, whatever its severity.
  return reports.some((report) => report.findings.length > 0) ? 1 : 0;
}
