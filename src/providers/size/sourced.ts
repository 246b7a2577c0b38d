import type { ProviderId } from '../provider-id.js';
import type { Gateway } from './gateway.js';

/** Whose limit a number is: a provider's API, or a gateway in front of it. */
export type Route = ProviderId | Gateway;

/**
 * A limit with where it was read and whose it is. Every number in the size tables carries one,
 * so a finding, the rule docs and `slim`'s report can say why the limit is what it is, and quote
 * the words of the service that enforces it. `unconfirmed` marks a value seen in one secondary
 * source only (reference/oversize.md): the rules report it as a warning.
 */
export interface Limit {
  value: number;
  source: string;
  by: Route;
  unconfirmed?: true;
}

export const limit = (by: Route, value: number, source: string, unconfirmed?: 'unconfirmed'): Limit =>
  unconfirmed === undefined ? { value, source, by } : { value, source, by, unconfirmed: true };

/** The lower of two limits (a gateway in front of a provider): the one a request meets first. */
export function lower(a: Limit | undefined, b: Limit | undefined): Limit | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.value < a.value ? b : a;
}
