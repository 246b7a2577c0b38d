import type { MeasuredMedia, RequestSize } from '../../model/size/request-size.js';
import type { Budget } from '../budget.js';
import { imageOverLimit, type SlimLimits } from '../limits.js';
import type { SlimSession } from '../session.js';
import { mediaStub } from '../stubs.js';
import type { ThinkingRule } from './thinking.js';

/** The key of a medium in Budget.overLimit. */
export function mediaKey(media: Pick<MeasuredMedia, 'entry' | 'pointer'>): string {
  return `${media.entry} ${media.pointer}`;
}

/** Notes every image over a per-image limit in the budget: the request does not fit while one is left. */
export function noteImagesOverLimit(size: RequestSize, limits: SlimLimits, budget: Budget, lineOf: (entry: number) => number): void {
  const count = size.media.filter((media) => media.kind === 'image').length;
  for (const media of size.media) {
    const why = imageOverLimit(media, count, limits.images);
    if (why !== undefined) budget.overLimit.set(mediaKey(media), `an image over a limit at line ${lineOf(media.entry)} (${why})`);
  }
}

/**
 * 1. Images over a per-image limit: each fails every request that holds it, so it goes wherever it
 * is, except in the latest turn when a signed thinking block follows it there (that turn stays
 * byte for byte; the report says the image is left).
 */
export function stubImagesOverLimit(session: SlimSession, thinking: ThinkingRule): Set<string> {
  const stubbed = new Set<string>();
  const count = session.size.media.filter((media) => media.kind === 'image').length;
  for (const media of session.size.media) {
    const why = imageOverLimit(media, count, session.limits.images);
    const at = session.position[media.entry]!;
    if (why === undefined || at === -1) continue;
    if (at > session.lastPrompt && session.thinkingAfter(at)) continue;
    stub(session, media, at, `over a limit: ${why}`, 'images-over-limit');
    session.budget.overLimit.delete(mediaKey(media));
    stubbed.add(mediaKey(media));
    thinking.follow();
  }
  return stubbed;
}

/** 2. Older images, oldest first, outside the protected turns, until the request fits. */
export function stubOldImages(session: SlimSession, thinking: ThinkingRule, stubbed: ReadonlySet<string>): void {
  const old = session.size.media
    .map((media) => ({ media, at: session.position[media.entry]! }))
    .filter(({ media, at }) => at !== -1 && at < session.protectedFrom && !stubbed.has(mediaKey(media)))
    .sort((a, b) => a.at - b.at);
  for (const { media, at } of old) {
    if (session.budget.fits()) return;
    stub(session, media, at, 'an older image, taken out to make the session fit', 'old-images');
    thinking.follow();
  }
}

function stub(session: SlimSession, media: MeasuredMedia, at: number, why: string, strategy: 'images-over-limit' | 'old-images'): void {
  const text = mediaStub({ media: media.kind, mediaType: media.mediaType, base64Length: media.base64Length, width: media.width, height: media.height }, why);
  const before = session.budget.bytes;
  // The stub's UTF-8 bytes, as the size measure counts text ('×' is two), not its length.
  const tokens = session.budget.takeImage(media.base64Length, Buffer.byteLength(text, 'utf8'));
  session.edit(strategy, at, session.analysis.entries.line(media.entry), { kind: 'stub-media', pointer: media.pointer, text }, { bytes: before - session.budget.bytes, tokens });
}
