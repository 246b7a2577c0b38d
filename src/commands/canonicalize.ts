import { canonicalRewrite } from '../pipeline/rewrite.js';
import { prepareRewrite, runCanonicalCheck } from '../run/rewrite.js';
import { sourcesOf } from '../run/sources.js';
import { namedInputs } from './inputs.js';
import { refuseWritesOverInputs } from '../io/output-paths.js';
import { emitReports, planReports, reportWrites } from './reporting.js';
import { rewriteCommand, withTranscriptTarget, type RewriteOptions } from './rewrite.js';
import { printConfig } from './print-config.js';
import { agentOf } from './format-options.js';

/** `transcript-doctor canonicalize`: returns the exit code. */
export async function canonicalizeCommand(paths: readonly string[], given: RewriteOptions & { check?: boolean }): Promise<number> {
  if (given.printConfig) return printConfig(given.config);
  if (!given.check) return rewriteCommand(paths, given, canonicalRewrite, 'canonicalize');
  const options = withTranscriptTarget(given);
  const destinations = await planReports(options);
  const prepared = prepareRewrite(canonicalRewrite, options.config);
  const inputs = (await namedInputs(paths, options, prepared.ignores)) ?? [];
  await refuseWritesOverInputs(reportWrites(destinations), inputs.map((input) => input.path));
  const reports = await runCanonicalCheck(sourcesOf(inputs, process.stdin), options, agentOf(options));
  await emitReports(destinations, reports, { color: options.color, ruleSet: prepared.ruleSet });
  // Like prettier --check: any line that would change fails, whatever its severity.
  return reports.some((report) => report.findings.length > 0) ? 1 : 0;
}
