import type { Analysis } from '../../model/analysis.js';
import type { Entry } from '../../model/entry.js';
import { measureRequest } from '../../model/size/measure.js';
import type { RequestSize } from '../../model/size/request-size.js';
import { contracts } from '../../providers/index.js';
import { GATEWAY_NAMES } from '../../providers/size/gateway.js';
import { judgeSize, type SizeJudge } from '../../providers/size/judge.js';
import { sizeText, type SizeAt, type SizeProblem } from '../../providers/size/size-texts.js';
import type { Limit, Route } from '../../providers/size/sourced.js';
import type { Problem } from '../rule.js';

/** The replayed request, measured once (measureRequest keeps it), and what it is judged against. */
export interface Measured {
  request: RequestSize;
  judge: SizeJudge;
}

const judged = new WeakMap<RequestSize, SizeJudge>();

/** The size rules' one way to read a session: measureRequest's figures and the limits they meet. */
export function measured(analysis: Analysis): Measured {
  const request = measureRequest(analysis);
  let judge = judged.get(request);
  if (judge === undefined) judged.set(request, (judge = judgeSize(analysis, request)));
  return { request, judge };
}

/** The last entry the request sends: where a finding about the whole request sits (the line a resume would send last). */
export function lastSent(analysis: Analysis): Entry | undefined {
  const { indices } = analysis.replay.context;
  return indices.length === 0 ? undefined : analysis.entries.at(indices[indices.length - 1]!);
}

/** How findings name whoever enforces a limit. */
export function routeName(route: Route): string {
  return route in GATEWAY_NAMES ? GATEWAY_NAMES[route as keyof typeof GATEWAY_NAMES] : contracts[route as keyof typeof contracts].name;
}

/**
 * The error the service that set `limit` returns, as it words it, and a warning for a limit seen
 * in one secondary source only (or a window guessed for a model the table does not know).
 */
export function sizeWords(limit: Pick<Limit, 'by' | 'unconfirmed'> | Route | undefined, problem: SizeProblem, at: SizeAt, guessed = false): Pick<Problem, 'providerError' | 'severity'> {
  const { by, unconfirmed } = typeof limit === 'object' ? limit : { by: limit, unconfirmed: undefined };
  const text = sizeText(by, problem, at);
  const words: Pick<Problem, 'providerError' | 'severity'> = { providerError: text === undefined ? undefined : `${routeName(by!)}: ${text}` };
  if (unconfirmed === true || guessed) words.severity = 'warning';
  return words;
}

/** Where the provider sees an entry's content: its message and first block in the request. */
export function placeOf(analysis: Analysis, entry: number): { message: number; block: number } {
  const item = analysis.replay.itemOf(entry);
  return { message: Math.max(0, item?.messageIndex ?? 0), block: Math.max(0, item?.blockIndex ?? 0) };
}

/** A count with its thousands grouped, as findings print figures. */
export const figure = (value: number): string => value.toLocaleString('en-US');
