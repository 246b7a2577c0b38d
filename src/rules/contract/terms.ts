import type { Analysis } from '../../model/analysis.js';
import { chooseProvider, enforcedTerm } from '../../providers/choose.js';
import { severityOf, type At, type ProviderContract, type TermId } from '../../providers/contract.js';
import { contracts } from '../../providers/index.js';
import type { Problem } from '../rule.js';

import type { Judged } from '../../providers/choose.js';

/** The chosen provider's term for a contract rule (see enforcedTerm). */
export const contractTerm: (analysis: Analysis, id: TermId) => Judged | undefined = enforcedTerm;

/**
 * For rules that predate provider contracts: the term of the provider a person named
 * (`--provider`, config). Without one they keep their own wording, so reports stay as they were.
 */
export function namedTerm(analysis: Analysis, id: TermId): Judged | { contract: ProviderContract; term: undefined } | undefined {
  const choice = chooseProvider(analysis);
  if (!choice.explicit || choice.id === undefined) return undefined;
  const contract = contracts[choice.id];
  return { contract, term: contract.terms[id] };
}

const NOWHERE: At = { message: 0, block: 0, call: 0, id: '', whitespace: false, mediaType: '', bytes: 0 };

/** The provider's exact text and the severity its grade gives (C, D: the rule's own; L, U: warning). */
export function worded({ contract, term }: Judged, at: Partial<At>): Pick<Problem, 'providerError' | 'severity'> {
  const text = term.text?.({ ...NOWHERE, ...at });
  return { providerError: text === undefined ? undefined : `${contract.name}: ${text}`, severity: severityOf(term.grade) === 'warning' ? 'warning' : undefined };
}

/**
 * The message index an entry has in the request, or would have where pi leaves it out (a failed
 * turn, a blank user message) and a client that keeps it sends it: one after the last sent before it.
 */
export function sentIndex(analysis: Analysis, index: number): number {
  const { indices, messageIndex } = analysis.replay.context;
  let last = -1;
  for (let at = 0; at < indices.length; at++) {
    if (indices[at] === index) return messageIndex[at]! >= 0 ? messageIndex[at]! : last + 1;
    if (messageIndex[at]! > last) last = messageIndex[at]!;
  }
  return last + 1;
}
