import type { Entry, KeptContractProblem } from '../model/entry.js';

/**
 * The problems of one kind in history an agent replays from its records (see
 * KeptContractProblem): contract rules judge them there as they judge messages elsewhere.
 */
export function keptProblems<K extends KeptContractProblem['kind']>(entry: Entry, kind: K): Array<KeptContractProblem & { kind: K }> {
  const problems = entry.keptHistoryProblems;
  if (problems === undefined) return [];
  return problems.filter((problem): problem is KeptContractProblem & { kind: K } => problem.kind === kind);
}

/** How a finding in such a history says where it is. */
export const IN_REPLAYED_HISTORY = 'in the history the client replays';
