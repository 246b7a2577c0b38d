import type { SizeKind, SizeParts } from './request-size.js';

/**
 * Turns the bytes a request holds into input tokens. Chosen by measurement against the usage the
 * corpus's sessions recorded (scripts/calibrate-tokens.mjs; the figures are in docs/size.md).
 */
export interface TokenEstimator {
  readonly name: string;
  /** Bytes per token, by kind (images and documents are counted from their pixels and pages instead; signatures count none). */
  readonly bytesPerToken: Readonly<Record<Exclude<SizeKind, 'image' | 'document' | 'signature'>, number>>;
  /** Tokens each message adds beyond its content (role, block framing, a call's id and name). */
  readonly perMessage: number;
  /**
   * How far below the real count the estimate was measured to fall (a fraction of the estimate):
   * TokenEstimate.high adds this much to what was estimated, so a session said to fit does.
   */
  readonly margin: number;
  /**
   * Tokens the request body holds per message beyond what the provider counts for it (its JSON's
   * keys, quoting and escapes, counted with the body's tokenizer), for every message sent: a
   * recorded usage is the provider's count, which has none of them. TokenEstimate.high adds them,
   * so a session said to fit does by the count of the body the client sends too.
   */
  readonly framing: number;
}

function flat(name: string, bytesPerToken: number, perMessage: number, margin: number, framing = 0): TokenEstimator {
  return { name, bytesPerToken: { text: bytesPerToken, thinking: bytesPerToken, toolCall: bytesPerToken, toolResult: bytesPerToken, other: bytesPerToken }, perMessage, margin, framing };
}

/**
 * Candidates the calibration compares, and the ones chosen per model family (see modelFamily):
 * Claude's tokenizer counts code-heavy agent text at about 2.7 bytes a token, OpenAI's o200k at
 * about 4. The margins are the measured low bias (docs/size.md); the plain ratios have none.
 * OpenAI's framing: o200k_base over the JSON of 36 Codex 0.169.0 request bodies (the corpus's
 * client runs and slim-resume's) counts 47 to 59 tokens a message beyond its content strings
 * (median 51.5; escapes are 2 to 8 of them): 50 beyond the 8 of perMessage covers the largest.
 */
export const ESTIMATORS: Readonly<Record<string, TokenEstimator>> = {
  'bytes/4': flat('bytes/4', 4, 0, 0),
  'bytes/3': flat('bytes/3', 3, 0, 0),
  claude: flat('claude: bytes/2.7', 2.7, 8, 0.4),
  openai: flat('openai: bytes/4', 4, 8, 0.25, 50),
  other: flat('other: bytes/3', 3, 8, 0.4),
};

/** The estimator for models whose family is unknown. */
export const TOKEN_ESTIMATOR: TokenEstimator = ESTIMATORS.other!;

/** Models whose tokenizers count alike: Claude's, OpenAI's (o200k), and the rest. */
export type ModelFamily = 'claude' | 'openai' | 'other';

export function modelFamily(model: string | undefined): ModelFamily {
  if (model === undefined) return 'other';
  const name = model.toLowerCase();
  if (name.includes('claude') || /(^|[/.:])(opus|sonnet|haiku)/.test(name)) return 'claude';
  if (/(^|[/.:])(gpt|o\d|codex|chatgpt)/.test(name)) return 'openai';
  return 'other';
}

/** The family of a session that names no model: the one its agent talks to unless told otherwise. */
const FORMAT_FAMILY: Readonly<Record<string, ModelFamily>> = { 'claude-code': 'claude', codex: 'openai' };

/** The estimator chosen for a model (the one the session talks to), else for the format's usual one. */
export function estimatorFor(model: string | undefined, format?: string): TokenEstimator {
  const family = model === undefined && format !== undefined ? FORMAT_FAMILY[format] ?? 'other' : modelFamily(model);
  return ESTIMATORS[family]!;
}

/** Tokens for `bytes` of one kind of content (for images and documents, see imageTokens and documentTokens). */
export function textTokens(kind: SizeKind, bytes: number, estimator: TokenEstimator = TOKEN_ESTIMATOR): number {
  if (kind === 'image' || kind === 'document' || kind === 'signature' || bytes <= 0) return 0;
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
