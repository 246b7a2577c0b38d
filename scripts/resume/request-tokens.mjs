// Input tokens of a captured request, by our estimator: the text at bytes/3 (code-heavy text
// stays near 3 bytes a token, where bytes/4 counts a quarter to a third low: oversize.md §4), each
// image at a flat 1,600 tokens (what Anthropic charges an image at its largest unresized size,
// about 1.15 megapixels; the base64 itself is not tokenized), rounded up so a request said to be
// under the target is.
import { imagesIn } from './wire.mjs';

export const ESTIMATOR = 'bytes/3 of the text, 1600 an image';
const BYTES_PER_TOKEN = 3;
const IMAGE_TOKENS = 1_600;

function withoutImages(value, images) {
  if (typeof value === 'string') return images.has(value) ? '' : value;
  if (Array.isArray(value)) return value.map((item) => withoutImages(item, images));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutImages(item, images)]));
  return value;
}

/** `{ tokens, images }` of a request body (or of any part of one: its messages alone). */
export function requestTokens(body) {
  const images = new Set(imagesIn(body));
  const text = Buffer.byteLength(JSON.stringify(withoutImages(body, images)));
  return { tokens: Math.ceil(text / BYTES_PER_TOKEN) + imagesIn(body).length * IMAGE_TOKENS, images: imagesIn(body).length };
}
