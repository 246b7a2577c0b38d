import type { Analysis, PathView } from '../../model/analysis.js';
import { ASSISTANT, TOOL_RESULT, USER } from '../../model/entry-bits.js';
import { semanticsOf } from '../../model/transcript.js';
import { chooseProvider, enforcedTerm, shapeProvider, type Judged } from '../../providers/choose.js';
import { severityOf, type At, type ProviderContract, type TermId } from '../../providers/contract.js';
import { contracts } from '../../providers/index.js';
import type { Problem } from '../rule.js';

/** The chosen provider's term for a contract rule (see enforcedTerm). */
export const contractTerm: (analysis: Analysis, id: TermId) => Judged | undefined = enforcedTerm;

/**
 * The contract whose words a file's findings speak: the provider a person named (`--provider`,
 * config) or the one a request line's shape is written for; undefined for a session nobody named
 * a provider for.
 */
function namedContract(analysis: Analysis): ProviderContract | undefined {
  const choice = chooseProvider(analysis);
  if (choice.id === undefined) return undefined;
  return choice.explicit || shapeProvider(analysis) === choice.id ? contracts[choice.id] : undefined;
}

/**
 * For rules that predate provider contracts: the term of the named provider (see namedContract).
 * Without one they keep their own wording, so reports of sessions stay as they were.
 */
export function namedTerm(analysis: Analysis, id: TermId): Judged | { contract: ProviderContract; term: undefined } | undefined {
  const contract = namedContract(analysis);
  return contract === undefined ? undefined : { contract, term: contract.terms[id] };
}

/**
 * For a file nobody named a provider for: the contract of the provider it talks to (see
 * chooseProvider), when that provider refuses what the rule finds and says so in words. Findings
 * then quote the provider the session will meet, not a stand-in.
 */
export function spokenContract(analysis: Analysis, id: TermId): ProviderContract | undefined {
  const { id: provider, explicit } = chooseProvider(analysis);
  if (provider === undefined || explicit) return undefined;
  const term = contracts[provider].terms[id];
  return term?.text !== undefined && severityOf(term.grade) !== 'warning' ? contracts[provider] : undefined;
}

/** The words of the provider a file talks to for a finding at `at`, when it refuses what the rule finds (see spokenContract). */
export function spokenError(analysis: Analysis, id: TermId, at: Partial<At>): string | undefined {
  const contract = spokenContract(analysis, id);
  return contract === undefined ? undefined : worded({ contract, term: contract.terms[id]! }, at).providerError;
}

/** The name of the provider a file talks to, when it is known (see chooseProvider). */
export function spokenProviderName(analysis: Analysis): string | undefined {
  const provider = chooseProvider(analysis).id;
  return provider === undefined ? undefined : contracts[provider].name;
}

const NOWHERE: At = { message: 0, block: 0, call: 0, id: '', ids: [], earlier: 0, after: 'other', whitespace: false, mediaType: '' };

/** The provider's exact text and the severity its grade gives (C, D: the rule's own; L, U: warning). */
export function worded({ contract, term }: Judged, at: Partial<At>): Pick<Problem, 'providerError' | 'severity'> {
  const text = term.text?.({ ...NOWHERE, ...at });
  return { providerError: text === undefined ? undefined : `${contract.name}: ${text}`, severity: severityOf(term.grade) === 'warning' ? 'warning' : undefined };
}

/** Where a pairing finding sits: a position on a path, and for a result its index among its entry's results. */
export interface Place {
  path: PathView;
  at: number;
  k?: number;
}

/** Stands for an id the file does not hold (a call the model numbered itself); a text that would name it is not quoted. */
const NO_ID = '\u0000';

/**
 * The pairing rules' one way to word a finding at `place`: its provider text and severity. `at`
 * carries what the text names besides the message index (blocks, ids); `earlier` is the place of
 * the result a duplicate repeats; `anonymous`: the call has no id in the file, so no text that
 * names one is quoted. A named provider (see namedContract) answers in its own text, with the
 * severity its grade gives, and one that accepts what the rule finds makes it a warning without
 * text. Without one a session keeps the rule's own severity and speaks the words of the provider
 * it talks to (see spokenContract), else those it always had: the Responses API's for a format
 * that talks to it (Codex), Anthropic's for the rest. Asked only when there is a finding: a clean
 * file costs nothing.
 */
export function pairingWords(
  analysis: Analysis,
  id: TermId,
  place: Place,
  at: Partial<At> = {},
  options: { earlier?: Place; anonymous?: boolean } = {},
): Pick<Problem, 'providerError' | 'severity'> {
  const named = namedContract(analysis);
  const contract = named ?? spokenContract(analysis, id) ?? (semanticsOf(analysis.transcript).api === 'responses' ? contracts['openai-responses'] : contracts.anthropic);
  const term = contract.terms[id];
  const severity = named === undefined ? undefined : term === undefined || severityOf(term.grade) === 'warning' ? 'warning' : undefined;
  if (term?.text === undefined) return { providerError: undefined, severity };
  const full: At = { ...NOWHERE, ...at, message: messageOf(contract, place) };
  if (place.k !== undefined) full.after = follows(place);
  if (options.earlier !== undefined) full.earlier = messageOf(contract, options.earlier);
  if (options.anonymous) Object.assign(full, { id: NO_ID, ids: [NO_ID] });
  const text = term.text(full);
  return { providerError: text.includes(NO_ID) ? undefined : `${contract.name}: ${text}`, severity };
}

/** The message index of a place as the provider counts: results share one message, or each is its own (resultsApart). */
function messageOf(contract: ProviderContract, { path, at, k }: Place): number {
  if (!contract.resultsApart) return path.context.messageIndex[at]!;
  return apartIndices(path)[at]! + (k ?? 0);
}

const apart = new WeakMap<PathView, Int32Array>();

/** Each position's message index when every tool result is a message of its own; made once per path, when a finding first asks. */
function apartIndices(path: PathView): Int32Array {
  let indices = apart.get(path);
  if (indices !== undefined) return indices;
  const { context } = path;
  const store = context.store;
  indices = new Int32Array(context.length);
  let next = 0;
  let last = -1;
  for (let at = 0; at < context.length; at++) {
    const m = context.messageIndex[at]!;
    const i = context.indices[at]!;
    if (m === -1) indices[at] = -1;
    else if (store.roleCode(i) === TOOL_RESULT) {
      indices[at] = next;
      next += store.hasResults(i) ? Math.max(1, store.resultEnd(i) - store.resultStart(i)) : 1;
      last = -1;
    } else if (m === last) indices[at] = next - 1;
    else {
      indices[at] = next++;
      last = m;
    }
  }
  apart.set(path, indices);
  return indices;
}

/** What the message holding a result follows: the nearest message sent before it (all lines of it). */
function follows({ path, at }: Place): At['after'] {
  const { messageIndex, indices, store } = path.context;
  const own = messageIndex[at]!;
  let before = -1;
  let after: At['after'] = 'other';
  for (let j = at - 1; j >= 0; j--) {
    const m = messageIndex[j]!;
    if (m === -1 || m >= own) continue;
    if (before !== -1 && m !== before) break;
    before = m;
    const i = indices[j]!;
    const role = store.roleCode(i);
    if (role === ASSISTANT && store.hasCalls(i)) return 'calls';
    if (role === USER) after = 'user';
  }
  return after;
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
