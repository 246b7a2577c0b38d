import type { SizeKind } from './request-size.js';
import type { SizeParts } from './facts.js';

/**
 * Turns the bytes a request holds into input tokens. Chosen by measurement against the usage the
 * corpus's sessions recorded (scripts/calibrate-tokens.mjs; the figures are in docs/size.md).
 */
export interface TokenEstimator {
  readonly name: string;
  /** Bytes per token, by kind (images and documents are counted from their pixels and pages instead). */
  readonly bytesPerToken: Readonly<Record<Exclude<SizeKind, 'image' | 'document'>, number>>;
  /** Tokens each message adds beyond its content (role, block framing, a call's id and name). */
  readonly perMessage: number;
  /**
   * How far below the real count the estimate was measured to fall (a fraction of the estimate):
   * TokenEstimate.high adds this much to what was estimated, so a session said to fit does.
   */
  readonly margin: number;
}

/** Candidates the calibration compares; TOKEN_ESTIMATOR is the one it chose. */
export const ESTIMATORS: Readonly<Record<string, TokenEstimator>> = {
  'bytes/4': {
    name: 'bytes/4',
    bytesPerToken: { text: 4, thinking: 4, toolCall: 4, toolResult: 4, other: 4 },
    perMessage: 0,
    margin: 0.5,
  },
  'bytes/3': {
    name: 'bytes/3',
    bytesPerToken: { text: 3, thinking: 3, toolCall: 3, toolResult: 3, other: 3 },
    perMessage: 0,
    margin: 0.3,
  },
  'per-kind': {
    name: 'per-kind',
    bytesPerToken: { text: 3.2, thinking: 3.4, toolCall: 2.9, toolResult: 2.9, other: 3.2 },
    perMessage: 4,
    margin: 0.2,
  },
};

export const TOKEN_ESTIMATOR: TokenEstimator = ESTIMATORS['per-kind']!;

/** Tokens for `bytes` of one kind of content (for images and documents, see imageTokens and documentTokens). */
export function textTokens(kind: SizeKind, bytes: number, estimator: TokenEstimator = TOKEN_ESTIMATOR): number {
  if (kind === 'image' || kind === 'document' || bytes <= 0) return 0;
  return Math.ceil(bytes / estimator.bytesPerToken[kind]);
}

/** Tokens for one entry's content by kind, media left out (they count by pixels and pages). */
export function partsTokens(parts: SizeParts, estimator: TokenEstimator = TOKEN_ESTIMATOR): number {
  let tokens = 0;
  for (const kind in parts) tokens += textTokens(kind as SizeKind, parts[kind as SizeKind]!, estimator);
  return tokens;
}

/** Anthropic scales an image to fit a 1568 px long edge and about 1.15 megapixels, then counts width × height / 750. */
const IMAGE_EDGE = 1568;
const IMAGE_PIXELS = 1_150_000;
const PIXELS_PER_TOKEN = 750;
/** An image whose header could not be read: counted as a full-size one. */
const UNKNOWN_IMAGE_TOKENS = Math.ceil(IMAGE_PIXELS / PIXELS_PER_TOKEN);

/** Input tokens of one image, from its pixel dimensions. */
export function imageTokens(width?: number, height?: number): number {
  if (width === undefined || height === undefined || width <= 0 || height <= 0) return UNKNOWN_IMAGE_TOKENS;
  let scale = Math.min(1, IMAGE_EDGE / Math.max(width, height));
  scale = Math.min(scale, Math.sqrt(IMAGE_PIXELS / (width * height * scale * scale)) * scale);
  return Math.ceil((width * scale * height * scale) / PIXELS_PER_TOKEN);
}

/** Anthropic counts a PDF page as its text plus an image of the page: 1,500 to 3,000 tokens. */
const PAGE_TOKENS = 3000;

/** Input tokens of one PDF: by pages when counted, else from its size (a page is tens of kilobytes). */
export function documentTokens(pages: number | undefined, bytes: number): number {
  return (pages ?? Math.max(1, Math.ceil(bytes / 50_000))) * PAGE_TOKENS;
}

/**
 * Tokens a session's requests hold beyond its messages (the agent's system prompt and tool
 * definitions), by format: counted only when the session records no usage to anchor on.
 * Measured on the corpus as the first recorded usage less the estimate of what preceded it.
 */
const OVERHEAD: Readonly<Record<string, number>> = {};

/** A session without recorded usage: what its agent sends beyond the messages, as measured. */
export function sessionOverhead(format: string | undefined): number {
  return format === undefined ? 0 : OVERHEAD[format] ?? 0;
}
