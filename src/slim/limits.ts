import type { ProviderId } from '../providers/provider-id.js';
import type { MeasuredMedia, RequestSize } from '../model/size/request-size.js';
import { DEFAULT_TARGET_SHARE, type SlimOptions } from './options.js';
import type { SlimTarget } from './report.js';

/** The per-image limits slim keeps every image under (Anthropic's, the strictest; oversize.md §5.3). */
export interface ImageLimits {
  /** Length of the base64 text. */
  base64: number;
  /** Pixels per side, and per side once the request holds more than `manyImages` images. */
  pixels: number;
  manyPixels: number;
  manyImages: number;
}

export interface SlimLimits {
  target: SlimTarget;
  images: ImageLimits;
}

const ANTHROPIC_IMAGES: ImageLimits = { base64: 5_242_880, pixels: 8000, manyPixels: 2000, manyImages: 20 };

/** Request bodies a provider refuses above (oversize.md §1); unknown: Anthropic's. */
const BODY_BYTES: Partial<Record<ProviderId, number>> = { anthropic: 32_000_000, bedrock: 25_000_000, vertex: 32_000_000 };

/** Context windows by model family, longest prefix first (oversize.md §1; size-rules keeps the full table). */
const WINDOWS: ReadonlyArray<[RegExp, number, string]> = [
  [/\[1m\]|-1m\b/i, 1_000_000, 'Anthropic 1M-context variant'],
  [/^gemini/i, 1_048_576, 'Gemini input token limit'],
  [/^gpt-4\.1/i, 1_047_576, 'OpenAI GPT-4.1 context window'],
  [/^(gpt-5|codex)/i, 400_000, 'OpenAI GPT-5 context window'],
  [/^claude|sonnet|opus|haiku/i, 200_000, 'Anthropic Claude context window'],
];

const DEFAULT_WINDOW = 200_000;

/** The limits a slimmed request must come under, for the model the session names (or the default window, said so). */
export function slimLimits(size: RequestSize, options: SlimOptions): SlimLimits {
  const found = size.model === undefined ? undefined : WINDOWS.find(([pattern]) => pattern.test(size.model!));
  const window = found?.[1] ?? DEFAULT_WINDOW;
  const windowSource = found?.[2] ?? `no window known for ${size.model === undefined ? 'a session that names no model' : size.model}: ${DEFAULT_WINDOW.toLocaleString('en-US')} assumed`;
  const target = options.target;
  const tokens = target === undefined ? Math.floor(window * DEFAULT_TARGET_SHARE) : 'tokens' in target ? target.tokens : Math.floor(window * target.share);
  const bytes = BODY_BYTES[options.provider ?? 'anthropic'] ?? BODY_BYTES.anthropic!;
  // 100 media on a 200k window, 600 on larger ones.
  const media = window <= 200_000 ? 100 : 600;
  return { target: { tokens, window, windowSource, model: size.model, bytes, media }, images: ANTHROPIC_IMAGES };
}

/** Why an image is over a per-image limit in a request holding `count` images, in words; undefined when it is not. */
export function imageOverLimit(media: Pick<MeasuredMedia, 'base64Length' | 'width' | 'height' | 'kind'>, count: number, limits: ImageLimits): string | undefined {
  if (media.kind !== 'image') return undefined;
  if (media.base64Length > limits.base64) return `${media.base64Length.toLocaleString('en-US')} base64 characters > ${limits.base64.toLocaleString('en-US')}`;
  const side = Math.max(media.width ?? 0, media.height ?? 0);
  if (side > limits.pixels) return `${media.width}×${media.height} px > ${limits.pixels} px`;
  if (count > limits.manyImages && side > limits.manyPixels) return `${media.width}×${media.height} px > ${limits.manyPixels} px in a request of more than ${limits.manyImages} images`;
  return undefined;
}
