export const ESTIMATOR: string;
/** Input tokens of a request body (or of a part of one), by our estimator, and the images in it. */
export function requestTokens(body: unknown): { tokens: number; images: number };
