import type { MeasuredMedia } from '../../model/size/request-size.js';
import type { Limit } from '../../providers/size/sourced.js';
import type { Problem, Rule } from '../rule.js';
import { figure, measured, sizeWords } from './measured.js';

export const imageTooLarge: Rule = {
  meta: {
    id: 'image-too-large',
    severity: 'error',
    category: 'size',
    fix: 'none',
    description: 'An image the request carries is over the provider’s size: its base64 length, its bytes, or its pixels (2000 px once a request holds more than 20 images).',
    docs: `## What it does
Checks every image whose bytes the replayed request carries, in user messages and inside tool
results, against the limits of the provider the session talks to (\`src/providers/size/size-limits.ts\`):
- Anthropic, Vertex and Bedrock: a base64 text of at most 5,242,880 characters (the 5 MB is
  counted on the base64 length, so an image of about 3.75 MB on disk is already over); at most
  8000 pixels a side; at most 2000 pixels a side once the request holds more than 20 images.
- OpenAI Chat: at most 20 MB an image.
Pixel sizes are read from the image's header (PNG, JPEG, GIF, WebP). The media type of an image is
\`image-limits\`'s business, which also judges providers whose size limit is not in this table.

## Why is this bad?
The provider rejects the whole request, and every later turn that still carries the image, so one
screenshot poisons the session for good (Claude Code #2104, #2939, #20021, #53547; Copilot CLI #3767).
What each provider answers:
- Anthropic, bytes: \`messages.16.content.2.tool_result.content.0.image.source.base64: image exceeds 5 MB maximum: 6521204 bytes > 5242880 bytes\`
- Anthropic, pixels: \`messages.7.content.2.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels\`
- Anthropic, many images: \`messages.8.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels\`
- OpenAI Chat: \`You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].\`
- Claude Code says, before sending: \`Image base64 size (8.4 MB) exceeds API limit (5.0 MB). Please resize the image before sending.\` and \`An image in the conversation exceeds the dimension limit for many-image requests (2000px). Start a new session with fewer images.\`

## Example
A Claude Code session whose Read of a 4 MB PNG screenshot returned it as an image in the tool
result: 5.3 million base64 characters, over 5,242,880.

## Fix
None in repair. \`transcript-doctor slim <session>\` replaces images over a limit with a short text
saying what was there, keeping the tool result and its call.`,
  },
  check({ analysis, report }) {
    const { request, judge } = measured(analysis);
    const { image } = judge.limits;
    const images = request.media.filter((media) => media.kind === 'image');
    const many = image.manyImages !== undefined && images.length > image.manyImages.over.value ? image.manyImages : undefined;
    for (const media of images) {
      const entry = analysis.entries.at(media.entry);
      const at = { message: media.messageIndex, block: media.blockIndex, inToolResult: media.inToolResult };
      const side = Math.max(media.width ?? 0, media.height ?? 0);
      const problems: Problem[] = [];
      const over = (limit: Limit | undefined, value: number) => limit !== undefined && value > limit.value;
      if (over(image.base64Length, media.base64Length)) {
        const limit = image.base64Length!;
        problems.push({ entry, message: `${where(media)} has a base64 text of ${figure(media.base64Length)} characters; ${figure(limit.value)} at most (${limit.source}).`, ...sizeWords(limit, 'imageBytes', { ...at, found: media.base64Length, limit: limit.value }) });
      }
      if (over(image.bytes, media.bytes)) {
        const limit = image.bytes!;
        problems.push({ entry, message: `${where(media)} is ${figure(media.bytes)} bytes; ${figure(limit.value)} at most (${limit.source}).`, ...sizeWords(limit, 'imageBytes', { ...at, found: media.bytes, limit: limit.value }) });
      }
      if (over(image.pixels, side)) {
        const limit = image.pixels!;
        problems.push({ entry, message: `${where(media)} is ${media.width}×${media.height} pixels; ${figure(limit.value)} a side at most (${limit.source}).`, ...sizeWords(limit, 'imagePixels', { ...at, found: side, limit: limit.value }) });
      } else if (many !== undefined && side > many.pixels.value) {
        problems.push({
          entry,
          message: `${where(media)} is ${media.width}×${media.height} pixels; with ${images.length} images in the request (more than ${many.over.value}), ${figure(many.pixels.value)} a side at most (${many.pixels.source}).`,
          ...sizeWords(many.pixels, 'manyImagePixels', { ...at, found: side, limit: many.pixels.value }),
        });
      }
      for (const problem of problems) report({ ...problem, pointer: media.pointer });
    }
  },
};

function where(media: MeasuredMedia): string {
  const type = media.mediaType === undefined ? 'An image' : `An image (${media.mediaType})`;
  return `${type} ${media.inToolResult ? 'in a tool result' : 'in the message'} (message ${media.messageIndex}, block ${media.blockIndex})`;
}
