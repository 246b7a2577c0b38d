import { SIZE_KINDS } from '../model/entry-bits.js';
import type { RequestSize } from '../model/size/request-size.js';
import type { SlimTarget } from './report.js';

/**
 * The request's size as the planner takes parts out of it: the measured size less what each
 * chosen edit saves. Savings are estimates; the next pass measures the output again and plans
 * more when the estimate was short (see settle in pipeline/passes.ts).
 */
export class Budget {
  tokens: number;
  bytes: number;
  media: number;
  /** Images over a per-image limit not yet stubbed, by entry and pointer. */
  readonly overLimit = new Map<string, string>();
  /** Tokens a byte of text (and of a thinking block) costs, and an image on average. */
  readonly tokensPerByte: number;
  /**
   * The same for history a compaction keeps: the agent counts it afresh (a compaction is newer
   * than any usage it recorded), so it is priced at the estimator's own rate with its margin,
   * not at the anchored one (a usage far under the bytes would make kept history look free).
   */
  readonly freshTokensPerByte: number;
  private readonly tokensPerImage: number | undefined;
  /**
   * What a saving is divided by: 1 plus the estimator's margin when a recorded usage counted the
   * history slim edits (it edits old turns, before the last usage). The recorded count carries no
   * margin, but once history it counted is edited what is left is the usage less estimated
   * savings, and the request after slim must fit with the estimator's margin like any estimate: a
   * saving counts at its low bound. 1 without a usage (the estimate already holds the margin).
   */
  private readonly savingDivisor: number;

  constructor(
    size: RequestSize,
    readonly target: SlimTarget,
    margin: number,
  ) {
    this.tokens = size.tokens.high;
    this.savingDivisor = size.tokens.anchor === undefined ? 1 : 1 + margin;
    this.bytes = size.bytes;
    this.media = size.mediaCount;
    const images = size.breakdown.byKind.image;
    // The body's framing is per message: cutting content leaves it, so no saving is priced with it.
    const content = size.tokens.high - size.tokens.framing;
    const scale = size.tokens.tokens === 0 ? 1 : content / size.tokens.tokens;
    this.tokensPerImage = images.count > 0 && images.tokens > 0 ? (images.tokens / images.count) * scale : undefined;
    const imageBytes = images.tokens > 0 ? images.bytes : 0;
    const imageTokens = images.tokens > 0 ? images.tokens * scale : 0;
    // Signatures are bytes without tokens: priced in, they would thin every other byte's share.
    const textBytes = size.bytes - imageBytes - size.breakdown.byKind.signature.bytes;
    this.tokensPerByte = textBytes > 0 ? Math.max(0, content - imageTokens) / textBytes : 0.25;
    const estimated = SIZE_KINDS.reduce((sum, kind) => (kind === 'image' || kind === 'document' ? sum : sum + size.breakdown.byKind[kind].tokens), 0);
    this.freshTokensPerByte = textBytes > 0 ? Math.max(this.tokensPerByte, (estimated * (1 + margin)) / textBytes) : this.tokensPerByte;
  }

  fits(): boolean {
    return this.tokens <= this.target.tokens && this.bytes <= this.target.bytes && this.media <= this.target.media && this.overLimit.size === 0;
  }

  /** Takes out `bytes` of text; returns the tokens that saves. */
  takeText(bytes: number): number {
    const tokens = Math.round((bytes * this.tokensPerByte) / this.savingDivisor);
    this.bytes -= bytes;
    this.tokens -= tokens;
    return tokens;
  }

  /** Takes out `bytes` the provider counts no tokens for (a signature). */
  takeBytes(bytes: number): void {
    this.bytes -= bytes;
  }

  /** Takes out an image (its base64 text), put back as a stub of `stubBytes`; returns the tokens that saves. */
  takeImage(base64Length: number, stubBytes: number): number {
    const tokens = Math.round((Math.round(this.tokensPerImage ?? base64Length * this.tokensPerByte) - Math.round(stubBytes * this.tokensPerByte)) / this.savingDivisor);
    this.bytes -= base64Length - stubBytes;
    this.tokens -= tokens;
    this.media--;
    return tokens;
  }

  /** What keeps the request over the target, in words. */
  over(): string[] {
    const left: string[] = [];
    if (this.tokens > this.target.tokens) left.push(`about ${Math.round(this.tokens).toLocaleString('en-US')} tokens (estimate plus its error) > target ${this.target.tokens.toLocaleString('en-US')}`);
    if (this.bytes > this.target.bytes) left.push(`${Math.round(this.bytes).toLocaleString('en-US')} request bytes > ${this.target.bytes.toLocaleString('en-US')}`);
    if (this.media > this.target.media) left.push(`${this.media} images and PDF pages > ${this.target.media}`);
    for (const why of this.overLimit.values()) left.push(why);
    return left;
  }
}
