import type { Analysis } from '../model/analysis.js';
import { semanticsOf } from '../model/transcript.js';
import { enforcedTerm, type Judged } from './choose.js';
import type { IdShape } from './contract.js';
import { idProblem, sentPart } from './id-shape.js';

/** What the chosen provider asks of tool-call ids, for the rule that reports them and the repair that rewrites them. */
export interface IdRule {
  shape: IdShape;
  /** The terms that judge characters and length; absent when the provider does not enforce that part. */
  charset?: Judged;
  length?: Judged;
  /** The format's item-id separator (see ReplaySemantics.callIdItemSeparator). */
  separator?: string;
}

export function idRuleOf(analysis: Analysis): IdRule | undefined {
  const charset = enforcedTerm(analysis, 'tool-call-id-format');
  const length = enforcedTerm(analysis, 'tool-call-id-length');
  const shape = (charset ?? length)?.contract.callId;
  if (shape === undefined) return undefined;
  return { shape, charset, length, separator: semanticsOf(analysis.transcript).callIdItemSeparator };
}

/** The id as the provider is sent it. */
export function sentId(rule: IdRule, id: string): string {
  return sentPart(rule.shape, id, rule.separator);
}

/** Which enforced part of the shape a stored id breaks, if any. */
export function idBreaks(rule: IdRule, stored: string): 'charset' | 'length' | undefined {
  const id = sentId(rule, stored);
  const problem = idProblem(rule.shape, id);
  if (problem === 'charset') {
    if (rule.charset !== undefined) return 'charset';
    return rule.length !== undefined && idProblem({ min: rule.shape.min, max: rule.shape.max }, id) === 'length' ? 'length' : undefined;
  }
  return problem === 'length' && rule.length !== undefined ? 'length' : undefined;
}
