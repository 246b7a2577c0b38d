import type { MeasuredMedia, RequestSize } from '../model/size/request-size.js';
import type { SizeJudge } from '../providers/size/index.js';
import { systemCounted } from './rank.js';
import type { Provider } from './catalogue-entry.js';
import type { RecognisedError } from './recognise.js';

/** A session's measured request and what it is judged against: what a size error is matched to. */
export interface SizeFacts {
  size: RequestSize;
  judge: Pick<SizeJudge, 'window' | 'limits'>;
  /** The session's place among the candidates, newest first (0 the newest), when known. */
  age?: number;
}

/** How well a session explains a size error, and the place in it the error points at. */
export interface SizeMatch {
  score: number;
  /** The replayed entry the error names (the image, the longest string, the message of calls); absent for the whole request. */
  entry?: number;
  /** JSON Pointer inside that entry's line. */
  pointer?: string;
  /** What in the session matches the error, in words. */
  evidence: string;
}

/** Scores, best first: a figure the session holds exactly beats one inside the estimate's range, which beats "over the limit". */
const EXACT = 800;
const CLOSE = 600;
const IN_RANGE = 500;
const OVER = 300;
const POSITION = 100;

/**
 * What the provider counts and the file does not hold (system prompt, tool definitions, the
 * prompt being sent), in tokens, when no usage the session recorded already includes it: Claude
 * Code's and Codex's run to tens of thousands.
 */
const UNSEEN_TOKENS = 40_000;

/**
 * How well one session explains a size error; undefined when it cannot: its request is far from
 * the size quoted, or nothing in it is over the limit named. The numbers the error quotes decide
 * (a base64 length or a string length equal to the one quoted, tokens inside the estimate's
 * range), then the message and block index, then whether the session's window is the limit quoted.
 */
export function scoreSize(error: RecognisedError, facts: SizeFacts): SizeMatch | undefined {
  switch (error.entry.size) {
    case 'tokens':
      return scoreTokens(error, facts);
    case 'bytes':
      return scoreBytes(error, facts);
    case 'image-bytes':
      return best(imagesOf(facts.size).map((media) => scoreImageBytes(error, facts, media)));
    case 'image-pixels':
      return best(imagesOf(facts.size).map((media) => scoreImagePixels(error, facts, media)));
    case 'pages':
      return best(facts.size.media.filter((media) => media.kind === 'document').map((media) => scorePages(error, media)));
    case 'media':
      return scoreMedia(error, facts);
    case 'length':
      return scoreLength(error, facts);
    case 'calls':
      return scoreCalls(error, facts);
    default:
      return undefined;
  }
}

function scoreTokens(error: RecognisedError, { size, judge, age }: SizeFacts): SizeMatch | undefined {
  const { tokens: quoted, limit } = error.numbers;
  const { tokens: estimate, high, anchor } = size.tokens;
  const window = judge.window?.tokens;
  const sameWindow = limit !== undefined && window !== undefined && Math.abs(window - limit) <= limit * 0.01;
  const range = `${estimate}–${high} tokens estimated${window === undefined ? '' : ` of a ${window}-token window`}`;
  const family = familyFit(error, size.model);
  // A window other than the one quoted counts against, mildly: a route may serve a model with a smaller window than its own.
  const otherWindow = limit !== undefined && window !== undefined && judge.window?.guessed !== true && !sameWindow;
  const windowFit = sameWindow ? WINDOW_FIT : otherWindow ? -WINDOW_FIT : 0;
  if (quoted !== undefined) {
    // The estimate runs low (reference/oversize.md §4), and without a recorded usage the provider also counts what the file lacks.
    const low = estimate * 0.8;
    const up = high * 1.2 + (anchor === undefined ? UNSEEN_TOKENS : 5_000);
    const off = quoted < low ? Math.log(low / quoted) : quoted > up ? Math.log(quoted / up) : 0;
    if (off > Math.log(2)) return undefined;
    // How likely this session's request is to be the one counted, in log-likelihood: near its
    // estimate for the spread the estimate has (its margin, and what the file does not show), a
    // model the provider that answered serves, the window quoted, and a session written lately.
    const likelihood = countFit(quoted, estimate, high, anchor === undefined ? UNANCHORED_SPREAD : ANCHORED_SPREAD) + family + windowFit + recency(age);
    return { score: CLOSE * Math.exp(likelihood / 4), evidence: `${range}; the provider counted ${quoted}` };
  }
  const against = limit ?? window;
  const prior = Math.round((family + recency(age)) * POSITION / 4);
  if (against === undefined) return { score: Math.max(1, Math.round(Math.min(1, estimate / 200_000) * POSITION) + prior), evidence: range };
  // Named without figures: a session well under its window is not the one that overflowed.
  if (high < against * 0.7) return undefined;
  return { score: OVER + Math.round(Math.min(1, high / against) * POSITION) + (sameWindow ? POSITION : 0) + prior, evidence: range };
}

/**
 * The log-likelihood of a count for a session estimated at `estimate`–`high` tokens: even across
 * that range (the estimator puts the count there), falling off outside it by `spread`, and
 * normalised by the range's width, so a session estimated tightly near the count outranks one
 * whose wide range merely holds it.
 */
function countFit(quoted: number, estimate: number, high: number, spread: { below: number; above: number }): number {
  const from = Math.log(Math.max(1, estimate));
  const to = Math.log(Math.max(1, estimate, high));
  const at = Math.log(Math.max(1, quoted));
  const tails = ((spread.below + spread.above) / 2) * Math.sqrt(2 * Math.PI);
  const outside = at < from ? (from - at) / spread.below : at > to ? (at - to) / spread.above : 0;
  return -(outside * outside) / 2 - Math.log(to - from + tails);
}

/**
 * The spread (in log terms) of the count around the estimate beyond the estimator's own margin:
 * with a recorded usage only the prompt being sent is unseen; without one, the system prompt and
 * tools as well (see UNSEEN_TOKENS).
 */
const ANCHORED_SPREAD = { below: 0.05, above: 0.15 };
const UNANCHORED_SPREAD = { below: 0.15, above: 0.3 };
/** Log-likelihood terms: the session's model is one the answering provider serves, or one it cannot serve; its window is the one quoted. */
const FAMILY_FIT = 0.7;
const FAMILY_MISFIT = -2;
const WINDOW_FIT = 0.5;
/** How much the prior falls with a session's place among the newest: the 10th newest loses 0.17, the 100th 0.6. */
const RECENCY = 0.25;

/** The models each provider serves, by name; `only`: it serves no other (its error cannot come from a session on another model). */
const SERVES: Partial<Record<Provider, { models: RegExp; only: boolean }>> = {
  Anthropic: { models: /claude/i, only: true },
  'Claude Code': { models: /claude/i, only: true },
  Bedrock: { models: /claude|anthropic/i, only: false },
  'Bedrock Converse': { models: /claude|anthropic/i, only: false },
  'OpenAI Chat': { models: /gpt|codex|(?:^|[/.])o\d/i, only: false },
  'OpenAI Responses': { models: /gpt|codex|(?:^|[/.])o\d/i, only: false },
  'Codex CLI': { models: /gpt|codex|(?:^|[/.])o\d/i, only: false },
  Gemini: { models: /gemini|gemma/i, only: true },
  Mistral: { models: /mistral|magistral|ministral|pixtral|devstral|codestral/i, only: true },
  MiniMax: { models: /minimax/i, only: true },
  Kimi: { models: /kimi|moonshot/i, only: true },
  xAI: { models: /grok/i, only: true },
  DashScope: { models: /qwen/i, only: false },
  'Qwen Code': { models: /qwen|coder-model/i, only: false },
};

/** Whether the session's model is one the provider that answered serves (FAMILY_FIT), cannot be (FAMILY_MISFIT), or may be (0). */
function familyFit(error: RecognisedError, model: string | undefined): number {
  const serves = SERVES[error.entry.provider];
  if (serves === undefined || model === undefined) return 0;
  if (serves.models.test(model)) return serves.only ? FAMILY_FIT : FAMILY_FIT / 3;
  return serves.only ? FAMILY_MISFIT : 0;
}

/**
 * The session that just failed was just written: a prior that falls slowly with the session's
 * place among the newest (0 the newest), so it decides between near equals and no more.
 */
function recency(age: number | undefined): number {
  return age === undefined ? 0 : -RECENCY * Math.log1p(age / 10);
}

function scoreBytes(error: RecognisedError, { size, judge }: SizeFacts): SizeMatch | undefined {
  const { bytes: quoted, approximate } = error.numbers;
  const limit = error.numbers.limit ?? judge.limits.requestBytes?.value;
  const said = `a request of about ${size.bytes} bytes${limit === undefined ? '' : ` (limit ${limit})`}`;
  if (quoted !== undefined) {
    // The body is estimated from the replayed content; a figure in megabytes is rounded to a tenth.
    const slack = quoted * 0.3 + (approximate === true ? 0.05 * 1024 * 1024 : 0);
    const off = Math.abs(size.bytes - quoted);
    if (off > slack) return undefined;
    return { score: IN_RANGE + Math.round((1 - off / slack) * POSITION), evidence: `${said}; the provider counted ${quoted}` };
  }
  if (limit !== undefined) return size.bytes < limit * 0.7 ? undefined : { score: OVER + Math.round(Math.min(1, size.bytes / limit) * POSITION), evidence: said };
  return { score: Math.round(Math.min(1, size.bytes / 32_000_000) * POSITION), evidence: said };
}

function scoreImageBytes(error: RecognisedError, { judge }: SizeFacts, media: MeasuredMedia): SizeMatch | undefined {
  const { bytes: quoted, approximate } = error.numbers;
  const limit = error.numbers.limit ?? judge.limits.image.base64Length?.value ?? judge.limits.image.bytes?.value;
  let score: number | undefined;
  if (quoted !== undefined && (media.base64Length === quoted || media.bytes === quoted)) score = EXACT;
  else if (quoted !== undefined && approximate === true && nearMegabytes(quoted, [media.base64Length, media.bytes])) score = CLOSE;
  else if (limit !== undefined && media.base64Length > limit) score = OVER;
  if (score === undefined) return undefined;
  return at(error, media, score, `an image of ${media.base64Length} base64 characters (${media.bytes} bytes)`);
}

function scoreImagePixels(error: RecognisedError, { size, judge }: SizeFacts, media: MeasuredMedia): SizeMatch | undefined {
  const many = error.entry.ref.includes('many');
  const limit = error.numbers.limit ?? (many ? judge.limits.image.manyImages?.pixels.value : judge.limits.image.pixels?.value);
  const side = Math.max(media.width ?? 0, media.height ?? 0);
  if (limit === undefined || side <= limit) return undefined;
  const images = size.media.filter((item) => item.kind === 'image').length;
  // The many-image limit applies only once the request holds more than 20 images.
  const manyHeld = !many || images > (judge.limits.image.manyImages?.over.value ?? 20);
  return at(error, media, OVER + (manyHeld ? POSITION : 0), `an image of ${media.width}×${media.height} pixels${many ? ` among ${images} images` : ''}`);
}

function scorePages(error: RecognisedError, media: MeasuredMedia): SizeMatch | undefined {
  const limit = error.numbers.limit ?? 100;
  if (media.pages === undefined || media.pages <= limit) return undefined;
  return at(error, media, OVER, `a PDF of ${media.pages} pages`);
}

function scoreMedia(error: RecognisedError, { size, judge }: SizeFacts): SizeMatch | undefined {
  const { images, pages } = error.numbers;
  const quoted = images === undefined && pages === undefined ? undefined : (images ?? 0) + (pages ?? 0);
  const limit = error.numbers.limit ?? judge.limits.media?.perRequest.value;
  const evidence = `${size.mediaCount} images and PDF pages`;
  if (quoted !== undefined && size.mediaCount === quoted) return { score: EXACT, evidence };
  if (quoted !== undefined && Math.abs(size.mediaCount - quoted) <= 2) return { score: CLOSE, evidence };
  if (limit !== undefined && size.mediaCount > limit) return { score: OVER, evidence };
  return undefined;
}

function scoreLength(error: RecognisedError, { size, judge }: SizeFacts): SizeMatch | undefined {
  const longest = size.longestString;
  if (longest === undefined) return undefined;
  const { length: quoted } = error.numbers;
  const limit = error.numbers.limit ?? judge.limits.stringLength?.value;
  let score: number | undefined;
  if (quoted !== undefined && longest.length === quoted) score = EXACT;
  else if (quoted !== undefined && Math.abs(longest.length - quoted) <= quoted * 0.01) score = CLOSE;
  else if (limit !== undefined && longest.length > limit) score = OVER;
  if (score === undefined) return undefined;
  return { score, entry: longest.entry, pointer: longest.pointer, evidence: `a string of ${longest.length} characters` };
}

function scoreCalls(error: RecognisedError, { size, judge }: SizeFacts): SizeMatch | undefined {
  const most = size.mostToolCalls;
  if (most === undefined) return undefined;
  const { length: quoted } = error.numbers;
  const limit = error.numbers.limit ?? judge.limits.toolCallsPerMessage?.value;
  let score: number | undefined;
  if (quoted !== undefined && most.count === quoted) score = EXACT;
  else if (limit !== undefined && most.count > limit) score = OVER;
  if (score === undefined) return undefined;
  const sameMessage = error.messageIndex !== undefined && offsets(error).some((offset) => most.messageIndex + offset === error.messageIndex);
  return { score: score + (sameMessage ? POSITION : 0), entry: most.entry, pointer: '', evidence: `a message of ${most.count} tool calls` };
}

/** The score of one medium, raised when it sits where the error says (message, block, inside a tool result or not). */
function at(error: RecognisedError, media: MeasuredMedia, score: number, evidence: string): SizeMatch {
  const sameMessage = error.messageIndex !== undefined && offsets(error).some((offset) => media.messageIndex + offset === error.messageIndex);
  const sameBlock = sameMessage && error.blockIndex !== undefined && media.blockIndex === error.blockIndex;
  const sameNesting = sameBlock && (error.numbers.innerIndex !== undefined) === media.inToolResult;
  const bonus = (sameMessage ? POSITION : 0) + (sameBlock ? POSITION / 2 : 0) + (sameNesting ? POSITION / 4 : 0);
  const where = `${evidence} at message ${media.messageIndex}, block ${media.blockIndex}${media.inToolResult ? ' (in a tool result)' : ''}`;
  return { score: score + bonus, entry: media.entry, pointer: media.pointer, evidence: where };
}

/**
 * Whether a figure quoted in megabytes, rounded to a tenth (read as MiB, see patterns.ts), is one
 * of these byte counts: clients differ on whether a megabyte is 2^20 or 10^6 bytes, so both count.
 */
function nearMegabytes(quoted: number, counts: readonly number[]): boolean {
  const megabytes = quoted / MIB;
  return [MIB, 1_000_000].some((unit) => counts.some((count) => Math.abs(count - megabytes * unit) <= 0.05 * unit));
}

const MIB = 1024 * 1024;

function offsets(error: RecognisedError): number[] {
  return systemCounted(error.entry.provider) ? [0, 1] : [0];
}

function imagesOf(size: RequestSize): MeasuredMedia[] {
  return size.media.filter((media) => media.kind === 'image');
}

function best(matches: Array<SizeMatch | undefined>): SizeMatch | undefined {
  let found: SizeMatch | undefined;
  for (const match of matches) if (match !== undefined && (found === undefined || match.score > found.score)) found = match;
  return found;
}
