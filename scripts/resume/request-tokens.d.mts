import type { Wire } from './wire.mjs';
/** The estimator without a wire (bytes/3). */
export const ESTIMATOR: string;
/** The estimator a request in `wire` is counted with: o200k_base for the OpenAI formats, bytes/3 otherwise. */
export function estimatorFor(wire?: Wire): string;
/** Why requests in `wire` cannot be counted (the tokenizer is not installed), or undefined. */
export function tokenizerMissing(wire?: Wire): string | undefined;
/** Input tokens of a request body (or of a part of one) sent in `wire` (its JSON: high; its strings alone: a low bound), the images in it, and the estimator used. */
export function requestTokens(body: unknown, wire?: Wire): { tokens: number; textTokens: number; images: number; estimator: string };
