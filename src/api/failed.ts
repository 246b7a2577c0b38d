import { UserError } from '../errors.js';
import type { JsonReport } from '../report/json-document.js';
import type { Failure } from '../run/scan.js';

/**
 * Some inputs could not be read or written (the command line says so on standard error and exits
 * 2). The report of the inputs that could be is kept on the error.
 */
export class InputsFailedError extends UserError {
  override name = 'InputsFailedError';
  constructor(
    readonly failures: readonly Failure[],
    readonly report: JsonReport,
  ) {
    super(failures.length === 1 ? failures[0]!.message : `${failures.length} inputs failed; the first: ${failures[0]!.message}`);
  }
}

/** The report, or the error that carries it when some input failed. */
export function settled(report: JsonReport, failures: readonly Failure[]): JsonReport {
  if (failures.length > 0) throw new InputsFailedError(failures, report);
  return report;
}
