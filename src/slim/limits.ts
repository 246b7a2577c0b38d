import type { Analysis } from '../model/analysis.js';
import type { MeasuredMedia, RequestSize } from '../model/size/request-size.js';
import { judgeSize, mediaLimit, sizeLimits } from '../providers/size/index.js';
import { DEFAULT_TARGET_SHARE, type SlimOptions } from './options.js';
import type { SlimTarget } from './report.js';

/** The per-image limits slim keeps every image under. */
export interface ImageLimits {
  /** Length of the base64 text, and decoded bytes. */
  base64: number;
  bytes: number;
  /** Pixels per side, and per side once the request holds more than `manyImages` images. */
  pixels: number;
  manyPixels: number;
  manyImages: number;
}

export interface SlimLimits {
  target: SlimTarget;
  images: ImageLimits;
}

/** Anthropic's limits (the strictest) stand in where the provider is not known or sets none. */
const STRICTEST = sizeLimits('anthropic');

/**
 * The limits a slimmed request must come under, from the size tables (src/providers/size): the
 * model's window (the provider's default, said so, for a model the table does not know) times the
 * target share, the provider's body and media limits, and its per-image limits.
 */
export function slimLimits(analysis: Analysis, size: RequestSize, options: SlimOptions): SlimLimits {
  const judge = judgeSize(analysis, size);
  const window = judge.window ?? { tokens: 200_000, family: 'default', source: 'no window known: 200,000 tokens assumed', guessed: true as const };
  const target = options.target;
  const tokens = target === undefined ? Math.floor(window.tokens * DEFAULT_TARGET_SHARE) : 'tokens' in target ? target.tokens : Math.floor(window.tokens * target.share);
  const limits = judge.limits;
  const bytes = (limits.requestBytes ?? STRICTEST.requestBytes)?.value ?? Infinity;
  const media = (mediaLimit(limits, window) ?? mediaLimit(STRICTEST, window))?.value ?? Infinity;
  const image = judge.provider === undefined ? STRICTEST.image : limits.image;
  return {
    target: { tokens, window: window.tokens, windowSource: `${window.family === 'default' ? 'default window' : window.family}: ${window.source}`, model: judge.model, bytes, media },
    images: {
      base64: image.base64Length?.value ?? Infinity,
      bytes: image.bytes?.value ?? Infinity,
      pixels: image.pixels?.value ?? Infinity,
      manyPixels: image.manyImages?.pixels.value ?? Infinity,
      manyImages: image.manyImages?.over.value ?? Infinity,
    },
  };
}

/** Why an image is over a per-image limit in a request holding `count` images, in words; undefined when it is not. */
export function imageOverLimit(media: Pick<MeasuredMedia, 'base64Length' | 'bytes' | 'width' | 'height' | 'kind'>, count: number, limits: ImageLimits): string | undefined {
  if (media.kind !== 'image') return undefined;
  const n = (value: number) => value.toLocaleString('en-US');
  if (media.base64Length > limits.base64) return `${n(media.base64Length)} base64 characters > ${n(limits.base64)}`;
  if (media.bytes > limits.bytes) return `${n(media.bytes)} bytes > ${n(limits.bytes)}`;
  const side = Math.max(media.width ?? 0, media.height ?? 0);
  if (side > limits.pixels) return `${media.width}×${media.height} px > ${limits.pixels} px`;
  if (count > limits.manyImages && side > limits.manyPixels) return `${media.width}×${media.height} px > ${limits.manyPixels} px in a request of more than ${limits.manyImages} images`;
  return undefined;
}
