import type { Analysis } from '../model/analysis.js';
import { flagMask } from '../model/entry-bits.js';
import { semanticsOf } from '../model/transcript.js';
import { chooseProvider, enforcedTerm, shapeProvider, type Judged } from './choose.js';
import type { ProviderId } from './provider-id.js';

const SIGNED = flagMask('signedThinking');

/**
 * Whether reasoning is an item of its own that is verified alone: a Responses API history
 * (Codex, Responses requests) holds `reasoning` items whose `encrypted_content` does not cover the
 * items beside them, and a response is the run of model items between two inputs. Elsewhere a
 * signature is checked against the message that holds it (Anthropic, Gemini).
 */
export function reasoningIsItem(analysis: Analysis): boolean {
  return semanticsOf(analysis.transcript).api === 'responses';
}

/** A replayed entry whose signed reasoning another provider wrote: its context position and who signed it. */
export interface ForeignReasoning {
  at: number;
  signer: ProviderId;
}

/**
 * The replayed entries carrying reasoning signed by another provider than the chosen one, when
 * that provider verifies signatures (foreign-signed-reasoning). A turn's signer is what the file
 * records (pi), else the one provider the format's agent talks to (a request line's shape's).
 * Reads one bit per entry.
 */
export function foreignReasoning(analysis: Analysis): { terms: Judged; found: ForeignReasoning[] } | undefined {
  const terms = enforcedTerm(analysis, 'foreign-signed-reasoning');
  if (terms === undefined) return undefined;
  const choice = chooseProvider(analysis);
  // A request line's reasoning was signed by the provider its shape talks to.
  const fixed = semanticsOf(analysis.transcript).provider ?? shapeProvider(analysis);
  // An agent that talks to one provider signed everything for it.
  if (fixed === choice.id) return { terms, found: [] };
  const store = analysis.entries;
  const { indices, messageIndex } = analysis.replay.context;
  const found: ForeignReasoning[] = [];
  for (let at = 0; at < indices.length; at++) {
    const i = indices[at]!;
    if ((store.info[i]! & SIGNED) === 0 || messageIndex[at] === -1) continue;
    const signer = fixed ?? choice.session?.providerOf(i);
    if (signer !== undefined && signer !== choice.id) found.push({ at, signer });
  }
  return { terms, found };
}

/**
 * For an agent that talks to one provider (a Gemini CLI log replayed whole): when the file is
 * judged against another one that verifies signatures, every signature in what it sends is foreign.
 */
export function foreignToChosen(analysis: Analysis): { terms: Judged; signer: ProviderId } | undefined {
  const signer = semanticsOf(analysis.transcript).provider;
  if (signer === undefined || signer === chooseProvider(analysis).id) return undefined;
  const terms = enforcedTerm(analysis, 'foreign-signed-reasoning');
  return terms === undefined ? undefined : { terms, signer };
}
