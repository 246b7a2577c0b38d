import type { At, TermId } from '../../src/providers/contract.js';
import { contracts } from '../../src/providers/index.js';
import type { ProviderId } from '../../src/providers/provider-id.js';
import { worded } from '../../src/rules/contract/terms.js';

/** A provider's text for a term as a finding carries it (`<name>: <text>`), e.g. to run explain backwards. */
export function providerText(provider: ProviderId, id: TermId, at: Partial<At> = {}): string {
  const contract = contracts[provider];
  const text = worded({ contract, term: contract.terms[id]! }, at).providerError;
  if (text === undefined) throw new Error(`${provider} has no text for ${id}`);
  return text;
}
