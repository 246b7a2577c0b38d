// Input tokens of a captured request. Where the model's tokenizer is public, with it: a request in
// an OpenAI wire format (Responses, Chat Completions) goes to an OpenAI-family model, counted with
// o200k_base (gpt-tokenizer, installed in test/interop). Where it is not (Anthropic, Gemini), by
// our estimator: bytes/3 of the text (code-heavy text stays near 3 bytes a token, where bytes/4
// counts a quarter to a third low: oversize.md §4). Either counts the JSON of the whole body
// without its images (keys, quoting and escapes too, so it is high, never short), and each image
// at a flat 1,600 tokens (what Anthropic charges an image at its largest unresized size, about
// 1.15 megapixels; the base64 itself is not tokenized), rounded up so a request said to be under
// the target is.
import { createRequire } from 'node:module';
import { imagesIn } from './wire.mjs';

const BYTES_PER_TOKEN = 3;
const IMAGE_TOKENS = 1_600;
const O200K = 'o200k_base (gpt-tokenizer) of the JSON without images, 1600 an image';
const BYTES = 'bytes/3 of the JSON without images, 1600 an image';

/** The estimator a request in `wire` is counted with. */
export function estimatorFor(wire) {
  return wire === 'responses' || wire === 'chat' ? O200K : BYTES;
}
export const ESTIMATOR = BYTES;

const interop = createRequire(new URL('../../test/interop/package.json', import.meta.url));
let o200k;
/** The o200k_base counter, loaded once; a one-line reason when test/interop has not installed it. */
function o200kCount() {
  if (o200k === undefined) {
    try {
      o200k = interop('gpt-tokenizer/encoding/o200k_base').countTokens;
    } catch {
      throw new Error('gpt-tokenizer is not installed in test/interop (node scripts/test-deps.mjs installs it)');
    }
  }
  return o200k;
}

/** Why requests in `wire` cannot be counted here, or undefined. */
export function tokenizerMissing(wire) {
  if (estimatorFor(wire) !== O200K) return undefined;
  try {
    o200kCount();
    return undefined;
  } catch (error) {
    return error.message;
  }
}

function withoutImages(value, images) {
  if (typeof value === 'string') return images.has(value) ? '' : value;
  if (Array.isArray(value)) return value.map((item) => withoutImages(item, images));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutImages(item, images)]));
  return value;
}

function stringsOf(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

/**
 * `{ tokens, textTokens, images, estimator }` of a request body (or of any part of one: its
 * messages alone) sent in `wire`. `tokens` is the judge's figure (the JSON, high); `textTokens`
 * counts only the string values as the model reads them, unescaped, without keys or the
 * provider's framing of each item: a low bound, for how much of `tokens` is the JSON's own.
 */
export function requestTokens(body, wire) {
  const found = imagesIn(body);
  const bare = withoutImages(body, new Set(found));
  const estimator = estimatorFor(wire);
  // A special token's text (<|endoftext|>) in a transcript is plain text to the API: counted as such.
  const count = estimator === O200K ? (text) => o200kCount()(text, { disallowedSpecial: new Set() }) : (text) => Buffer.byteLength(text) / BYTES_PER_TOKEN;
  const images = found.length * IMAGE_TOKENS;
  const textTokens = Math.ceil(stringsOf(bare).reduce((sum, text) => sum + count(text), 0));
  return { tokens: Math.ceil(count(JSON.stringify(bare))) + images, textTokens: textTokens + images, images: found.length, estimator };
}
