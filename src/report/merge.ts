import { UserError } from '../errors.js';
import type { FileReport } from '../pipeline/finding.js';
import type { JsonReport } from './json-document.js';
import { fileReportsOf } from './read-json.js';

export interface Merged {
  reports: FileReport[];
  ruleSet?: string;
}

/**
 * The reports of several runs as one run's: every file once, in path order (code point order,
 * the same on every machine). Runs of different versions or rule sets do not make one run, and a
 * file in two reports means the shards overlapped (or a report was given twice): both refused.
 */
export function mergeReports(documents: ReadonlyArray<{ name: string; document: JsonReport }>): Merged {
  if (documents.length === 0) throw new UserError('merge-reports needs one or more JSON reports');
  const [first] = documents;
  const owner = new Map<string, string>();
  const reports: FileReport[] = [];
  for (const { name, document } of documents) {
    if (document.tool.version !== first!.document.tool.version) {
      throw new UserError(`${name} was written by transcript-doctor ${document.tool.version}, ${first!.name} by ${first!.document.tool.version}; run every shard with one version`);
    }
    if (document.ruleSet !== first!.document.ruleSet) {
      throw new UserError(`${name} and ${first!.name} were written with different rules or configs (rule set ${document.ruleSet ?? 'none'} vs ${first!.document.ruleSet ?? 'none'}); run every shard with one config`);
    }
    for (const report of fileReportsOf(document)) {
      const other = owner.get(report.path);
      if (other !== undefined) throw new UserError(`${report.path} is in both ${other} and ${name}; shards must not overlap`);
      owner.set(report.path, name);
      reports.push(report);
    }
  }
  reports.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const merged: Merged = { reports };
  if (first!.document.ruleSet !== undefined) merged.ruleSet = first!.document.ruleSet;
  return merged;
}
