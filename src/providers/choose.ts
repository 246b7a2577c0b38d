import type { Analysis } from '../model/analysis.js';
import { ASSISTANT } from '../model/entry-bits.js';
import { semanticsOf } from '../model/transcript.js';
import type { ProviderContract, Term, TermId } from './contract.js';
import { contracts, termOf } from './index.js';
import { isProviderId, type ProviderId } from './provider-id.js';
import { SessionProviders } from './session.js';

/**
 * The provider a file is judged against. `explicit` when a person named it (`--provider`, the
 * config): then the rules that predate provider contracts answer for that provider too.
 * `id` undefined: the provider is not known, and only the rules every provider shares apply.
 */
export interface ProviderChoice {
  id: ProviderId | undefined;
  explicit: boolean;
  /** Who each turn talked to, when the format records it (pi). */
  session: SessionProviders | undefined;
}

/**
 * `--provider` wins; otherwise the provider the format's agent talks to (Claude Code: Anthropic,
 * Codex: Responses), otherwise, where turns record it (pi / OpenClaw), the provider of the last
 * assistant turn the agent would replay.
 */
export function chooseProvider(analysis: Analysis): ProviderChoice {
  let choice = analysis.providerChoice as ProviderChoice | undefined;
  if (choice !== undefined) return choice;
  const transcript = analysis.transcript;
  const fixed = semanticsOf(transcript).provider;
  const session = fixed === undefined ? SessionProviders.of(analysis.entries) : undefined;
  const spoken = shapeProvider(analysis);
  if (transcript.provider !== undefined) choice = { id: transcript.provider, explicit: true, session };
  else if (spoken !== undefined) choice = { id: spoken, explicit: false, session };
  else if (fixed !== undefined) choice = { id: fixed, explicit: false, session };
  else choice = { id: lastAssistantProvider(analysis, session!), explicit: false, session };
  analysis.providerChoice = choice;
  return choice;
}

/** A line of a request file talks to the API its shape is written for; undefined for a session. */
export function shapeProvider(analysis: Analysis): ProviderId | undefined {
  const spoken = analysis.transcript.conversation?.provider;
  return spoken !== undefined && isProviderId(spoken) ? spoken : undefined;
}

function lastAssistantProvider(analysis: Analysis, session: SessionProviders): ProviderId | undefined {
  if (!session.known) return undefined;
  const { indices } = analysis.replay.context;
  const store = analysis.entries;
  for (let at = indices.length - 1; at >= 0; at--) {
    if (store.roleCode(indices[at]!) === ASSISTANT) return session.providerOf(indices[at]!);
  }
  return undefined;
}

/** A provider's contract and its term for one rule: what a rule needs to judge and word a finding, and a repair to fix it. */
export interface Judged {
  contract: ProviderContract;
  term: Term;
}

/**
 * The chosen provider's term for a contract rule, named or inferred; undefined when it does not
 * enforce it, or when the file's own agent adapts the history to it when it sends it (pi rewrites
 * other models' ids and reasoning) and no one named a provider: the rule is then skipped whole.
 */
export function enforcedTerm(analysis: Analysis, id: TermId): Judged | undefined {
  const choice = chooseProvider(analysis);
  const provider = choice.id;
  if (provider === undefined) return undefined;
  if (!choice.explicit && semanticsOf(analysis.transcript).adaptsOnSend?.includes(id)) return undefined;
  const term = contracts[provider].terms[id];
  return term === undefined ? undefined : { contract: contracts[provider], term };
}

/**
 * Whether a request line's provider refuses what a term names. A request line is sent as it is
 * written, so what its provider (its shape's, or the one named) takes stays. Undefined for a
 * session: its agent fixes such content itself when it sends it, whatever the provider.
 */
export function lineRefuses(analysis: Analysis, id: TermId): boolean | undefined {
  if (analysis.transcript.conversation == null) return undefined;
  return termOf(chooseProvider(analysis).id, id) !== undefined;
}
