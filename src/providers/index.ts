import { anthropic } from './anthropic.js';
import { bedrock } from './bedrock.js';
import type { Grade, ProviderContract, Term, TermId } from './contract.js';
import { gemini } from './gemini.js';
import { mistral } from './mistral.js';
import { openaiChat } from './openai-chat.js';
import { openaiResponses } from './openai-responses.js';
import { PROVIDER_IDS, type ProviderId } from './provider-id.js';
import { vertex } from './vertex.js';

export const contracts: Readonly<Record<ProviderId, ProviderContract>> = {
  anthropic,
  bedrock,
  vertex,
  'openai-chat': openaiChat,
  'openai-responses': openaiResponses,
  gemini,
  mistral,
};

/** The term a provider's contract has for a rule; undefined when the provider does not enforce it. */
export function termOf(provider: ProviderId | undefined, term: TermId): Term | undefined {
  return provider === undefined ? undefined : contracts[provider].terms[term];
}

/** Which providers enforce a rule, and at what grade: rule metadata and `transcript-doctor rules` list it. */
export function enforcedBy(...terms: TermId[]): Partial<Record<ProviderId, Grade>> {
  const found: Partial<Record<ProviderId, Grade>> = {};
  for (const id of PROVIDER_IDS) {
    const grades = terms.flatMap((term) => contracts[id].terms[term]?.grade ?? []);
    // The strongest evidence of the terms a rule checks.
    if (grades.length > 0) found[id] = grades.sort()[0];
  }
  return found;
}
