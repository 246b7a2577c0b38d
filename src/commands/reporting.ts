import { realpath, stat } from '../io/named-fs.js';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { refuseSharedWrites, type PlannedWrite } from '../io/output-paths.js';
import type { FileReport } from '../pipeline/finding.js';
import { loadReporter, reporterNames } from '../report/index.js';
import type { ReportOptions, Reporter } from '../report/types.js';
import { useColor, writeReport } from './output.js';
import { reportersOf, type FormatOptions } from './format-options.js';

/** `-r/--reporter` (repeatable) and `--output-file` (`<path>`, or `<reporter>:<path>` per reporter). */
export interface ReportingOptions extends FormatOptions {
  outputFile?: string[];
  color: boolean;
  /** Stylish only: every finding, none folded. */
  allFindings?: boolean;
  /** Stylish only: a count per rule instead of the findings. */
  statistics?: boolean;
}

interface Destination {
  name: string;
  reporter: Reporter;
  /** How the findings are shown, from the command line; only the stylish reporter reads it. */
  view: Pick<ReportOptions, 'allFindings' | 'statistics'>;
  /** undefined: the command's own stream (standard output, or standard error when stdout carries a transcript). */
  file?: string;
}

/** Loads every reporter asked for and where its text goes; a mistake is a usage error before any work. */
export async function planReports(options: ReportingOptions): Promise<Destination[]> {
  const asked = reportersOf(options);
  const names = asked.length > 0 ? asked : ['stylish'];
  const files = new Map<string, string>();
  let plain: string | undefined;
  for (const value of options.outputFile ?? []) {
    const paired = /^([a-z]+):(.+)$/.exec(value);
    if (paired !== null && reporterNames.includes(paired[1]!)) {
      if (!names.includes(paired[1]!)) throw new UserError(`--output-file ${value}: add --reporter ${paired[1]} too`);
      files.set(paired[1]!, paired[2]!);
    } else if (plain === undefined) {
      plain = value;
    } else {
      throw new UserError('give one plain --output-file, or pair each with its reporter as <reporter>:<path>');
    }
  }
  const view = { allFindings: options.allFindings === true, statistics: options.statistics === true };
  const destinations = await Promise.all(
    names.map(async (name, i): Promise<Destination> => {
      const reporter = await loadReporter(name);
      if (reporter === undefined) throw new UserError(`unknown reporter "${name}" (choose from: ${reporterNames.join(', ')})`);
      const file = files.get(name) ?? (i === 0 ? plain : undefined);
      return file === undefined ? { name, reporter, view } : { name, reporter, view, file };
    }),
  );
  await refuseSharedWrites(reportWrites(destinations));
  return destinations;
}

/** The report files a run will write, to check against its inputs (and each other) before any work. */
export function reportWrites(destinations: readonly Destination[]): PlannedWrite[] {
  return destinations.flatMap((destination) => (destination.file === undefined ? [] : [{ flag: '--output-file', path: destination.file, what: `the ${destination.name} report` }]));
}

/** Writes each report where it goes; colour only for a terminal. */
export async function emitReports(
  destinations: readonly Destination[],
  reports: readonly FileReport[],
  options: Omit<ReportOptions, 'color'> & { color: boolean },
  stream: NodeJS.WriteStream = process.stdout,
): Promise<void> {
  await refuseInputs(destinations, reports);
  for (const destination of destinations) {
    const color = useColor(options.color, destination.file, process.env, stream);
    const text = destination.reporter(reports, { ...options, ...destination.view, color });
    if (destination.file !== undefined) await writeReport(text, destination.file);
    else if (stream === process.stdout) await writeReport(text, undefined);
    else stream.write(text);
  }
}

/** A report written over a transcript it reports on would destroy it: refused before anything is written. */
async function refuseInputs(destinations: readonly Destination[], reports: readonly FileReport[]): Promise<void> {
  const real = (path: string) => realpath(path).catch(() => resolve(path));
  // A report file not there yet is no input: the inputs (thousands, in a projects folder) are resolved only when one is.
  const there = await Promise.all(destinations.map((destination) => (destination.file === undefined ? false : stat(destination.file).then(() => true, () => false))));
  if (!there.includes(true)) return;
  const inputs = new Set(await Promise.all(reports.filter((report) => report.path !== '-').map((report) => real(report.path))));
  for (const destination of destinations) {
    if (destination.file !== undefined && inputs.has(await real(destination.file))) {
      throw new UserError(`--output-file ${destination.file} is one of the inputs; refusing to write the report over it`);
    }
  }
}
