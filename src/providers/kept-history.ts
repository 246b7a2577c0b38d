import type { Analysis } from '../model/analysis.js';
import type { KeptContractProblem } from '../model/entry.js';
import { chooseProvider, enforcedTerm } from './choose.js';
import type { TermId } from './contract.js';
import { termOf } from './index.js';
import { foreignToChosen } from './reasoning.js';

/** The contract term by which each problem of a replayed history (see KeptContractProblem) is judged. */
export const KEPT_TERMS: Record<KeptContractProblem['kind'], TermId> = {
  'calls-open-history': 'call-turn-order',
  'result-name-mismatch': 'tool-result-name-mismatch',
  'result-name-missing': 'missing-tool-result-name',
  'blank-text': 'empty-text-block',
  'signed-reasoning': 'foreign-signed-reasoning',
};

/**
 * Whether the provider a file is judged against refuses such a problem, so its rule reports it and
 * repair mends it: a contract rule's term, a signature only when another provider signed it, blank
 * text unless a provider named for the file takes it.
 */
export function keptProblemRefused(analysis: Analysis, kind: KeptContractProblem['kind']): boolean {
  if (kind === 'signed-reasoning') return foreignToChosen(analysis) !== undefined;
  if (kind === 'blank-text') {
    const choice = chooseProvider(analysis);
    return !choice.explicit || termOf(choice.id, KEPT_TERMS[kind]) !== undefined;
  }
  return enforcedTerm(analysis, KEPT_TERMS[kind]) !== undefined;
}
