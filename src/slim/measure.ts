import type { Analysis } from '../model/analysis.js';
import { TOOL_RESULT } from '../model/entry-bits.js';
import type { MeasuredMedia, RequestSize, SizeKind } from '../model/size/request-size.js';

/**
 * The size of the request a session replays, as slim reads it. Until measureRequest
 * (src/model/size/measure.ts, h/size-facts) is merged this counts the replayed lines' bytes, with
 * the bytes/4 estimator and the low bias oversize.md §4 reports for code-heavy text (a third).
 */
export function measure(analysis: Analysis): RequestSize {
  const { entries, replay } = analysis;
  const indices = replay.context.indices;
  let bytes = 0;
  const media: MeasuredMedia[] = [];
  for (let at = 0; at < indices.length; at++) {
    const index = indices[at]!;
    bytes += entries.byteLength[index]!;
    const images = entries.rare.get(index)?.images;
    if (images === undefined) continue;
    const messageIndex = replay.context.messageIndex[at]!;
    for (const image of images) {
      const base64Length = Math.ceil(image.bytes / 3) * 4;
      media.push({ entry: index, pointer: image.pointer, messageIndex, blockIndex: image.blockIndex, kind: 'image', mediaType: image.declared, base64Length, bytes: image.bytes, inToolResult: entries.roleCode(index) === TOOL_RESULT });
    }
  }
  const tokens = Math.ceil(bytes / 4);
  const empty = { bytes: 0, tokens: 0, count: 0 };
  const byKind = Object.fromEntries((['text', 'thinking', 'toolCall', 'toolResult', 'image', 'document', 'other'] as SizeKind[]).map((kind) => [kind, { ...empty }])) as RequestSize['breakdown']['byKind'];
  return { tokens: { tokens, high: Math.ceil(tokens * 1.34), estimator: 'bytes/4' }, bytes, media, mediaCount: media.length, breakdown: { byKind, byTool: [], largest: [] } };
}
