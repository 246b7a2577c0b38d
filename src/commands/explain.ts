import { reason, UserError } from '../errors.js';
import { findCandidates } from '../explain/candidates.js';
import { contractProvider, locate } from '../explain/locate.js';
import { recognise } from '../explain/recognise.js';
import { explainResult } from '../explain/result.js';
import { sizeProvider } from '../explain/locate-size.js';
import { repairRewrite, rewriteInput } from '../pipeline/rewrite.js';
import { slimRewrite } from '../pipeline/slim-rewrite.js';
import { explainJson, explainText } from '../report/explain.js';
import { resolveMode } from './repair.js';
import { useColor } from './output.js';

export interface ExplainOptions {
  fix?: boolean;
  /** Folders given are searched into every hidden folder. */
  hidden?: boolean;
  /** stylish or json (commander checks the choice). */
  reporter?: string;
  color: boolean;
  /** --no-cache and --cache-dir: the search's scans are cached as scan's are. */
  cache?: boolean;
  cacheDir?: string;
}

/** `transcript-doctor explain`: 0 the session was found (and, with --fix, repaired or slimmed to fit), 1 recognised but not found (or slimmed and still over), 2 unrecognised or usage error. */
export async function explainCommand(text: string, paths: readonly string[], options: ExplainOptions): Promise<number> {
  const reporter = options.reporter ?? 'stylish';
  if (paths.includes('-')) throw new UserError('explain reads session files, not standard input; - stands for the error text only');
  const error = recognise(text === '-' ? await readStdin() : text);
  const mode = options.fix ? resolveMode(undefined) : undefined;
  const { files, searched } = error.entry.rules.length === 0 ? { files: [], searched: [] } : await findCandidates(paths, options.hidden);
  const search = await locate(error, files, undefined, { cache: options.cache, cacheDir: options.cacheDir });
  const result = explainResult(error, searched, files.length, search);
  const print = () => process.stdout.write(reporter === 'json' ? explainJson(result) : explainText(result, useColor(options.color, undefined)));
  if (mode !== undefined && result.session !== undefined) {
    const { path, measured } = result.session;
    const size = measured !== undefined;
    // Exactly what the printed command does: the same lock check, backup and atomic write; slim for a size error.
    const provider = size ? sizeProvider(error) : contractProvider(error);
    const rewrite = size ? slimRewrite({ target: measured.target === undefined ? undefined : { tokens: measured.target }, provider }) : repairRewrite(mode);
    try {
      const report = await rewriteInput(path, undefined, { ...rewrite, provider }, { kind: 'in-place', backup: true, force: false });
      rewrite.finish?.(report);
      result.fixed = { ...report.repair, remaining: report.findings.filter((finding) => finding.severity === 'error').length, ...(report.slim === undefined ? {} : { slim: report.slim }) };
    } catch (error) {
      // What was found still helps: it is printed before the one-line reason the repair was refused.
      print();
      throw error instanceof UserError ? error : new UserError(`cannot ${size ? 'slim' : 'repair'} ${path}: ${reason(error)}`);
    }
  }
  print();
  return result.session === undefined || result.fixed?.slim?.fits === false ? 1 : 0;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
