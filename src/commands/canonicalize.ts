import { canonicalRewrite } from '../pipeline/rewrite.js';
import { prepareRewrite, runCanonicalCheck } from '../run/rewrite.js';
import { sourcesOf } from '../run/sources.js';
import { namedInputs } from './inputs.js';
import { refuseWritesOverInputs } from '../io/output-paths.js';
import { emitReports, planReports, reportWrites } from './reporting.js';
import { rewriteCommand, type RewriteOptions } from './rewrite.js';
import { printConfig } from './print-config.js';
import { agentOf } from './format-options.js';

/** `transcript-doctor canonicalize`: returns the exit code. */
export async function canonicalizeCommand(paths: readonly string[], options: RewriteOptions & { check?: boolean }): Promise<number> {
  if (options.printConfig) return printConfig(options.config);
  if (!options.check) return rewriteCommand(paths, options, canonicalRewrite, 'canonicalize');
  const destinations = await planReports(options);
  const prepared = prepareRewrite(canonicalRewrite, options.config);
  const inputs = (await namedInputs(paths, options, prepared.ignores)) ?? [];
  await refuseWritesOverInputs(reportWrites(destinations), inputs.map((input) => input.path));
  const reports = await runCanonicalCheck(sourcesOf(inputs, process.stdin), options, agentOf(options));
  await emitReports(destinations, reports, { color: options.color, ruleSet: prepared.ruleSet });
  // Like prettier --check: any line that would change fails, whatever its severity.
  return reports.some((report) => report.findings.length > 0) ? 1 : 0;
}
