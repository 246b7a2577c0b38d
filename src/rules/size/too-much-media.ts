import { mediaLimit } from '../../providers/size/size-limits.js';
import type { Rule } from '../rule.js';
import { figure, measured, sizeWords } from './measured.js';

export const tooMuchMedia: Rule = {
  meta: {
    id: 'too-much-media',
    severity: 'error',
    category: 'size',
    fix: 'none',
    description: 'The request carries more images and PDF pages than the provider takes, or a PDF with more pages than it takes.',
    docs: `## What it does
Counts the images and PDF pages whose bytes the replayed request carries (in user messages and
inside tool results) against the provider's media limit: on Anthropic (also Vertex and Bedrock)
100 a request for models with a 200k-token window and 600 for the larger-window models, and at
most 100 pages in a PDF (\`src/providers/size/size-limits.ts\`). The finding sits on the first image
past the limit.

## Why is this bad?
The provider rejects every request from then on, text-only turns included, so a session that
collected screenshots turn by turn dies at the 101st (Claude Code #19822, #3397, #24541, #6231).
What Anthropic answers:
- \`Too much media: 0 document pages + 102 images > 100\`
- in another version: \`too many images and documents: 104 + 1 > 100\`
- a PDF: \`messages.38.content.0.pdf.source.base64.data: A maximum of 100 PDF pages may be provided.\`

## Example
A Claude Code session on \`claude-opus-4-5\` in which a browser tool returned a screenshot in each of
102 tool results.

## Fix
None in repair. \`transcript-doctor slim <session>\` replaces the oldest images with a short text
saying what was there until the request is under the limit.`,
  },
  check({ analysis, report }) {
    const { request, judge } = measured(analysis);
    const media = judge.limits.media;
    const limit = mediaLimit(judge.limits, judge.window);
    if (media === undefined || limit === undefined) return;
    if (request.mediaCount > limit.value) {
      // The item that takes the count past the limit: where a person starts to look.
      let count = 0;
      const past = request.media.find((item) => (count += item.kind === 'image' ? 1 : item.pages ?? 1) > limit.value) ?? request.media[request.media.length - 1]!;
      const images = request.media.filter((item) => item.kind === 'image').length;
      const pages = request.mediaCount - images;
      report({
        entry: analysis.entries.at(past.entry),
        pointer: past.pointer,
        message: `The request carries ${figure(images)} images and ${figure(pages)} PDF pages, ${figure(request.mediaCount)} in all; ${figure(limit.value)} at most (${limit.source}). This is the first past the limit.`,
        ...sizeWords(limit, 'media', { message: past.messageIndex, block: past.blockIndex, found: request.mediaCount, limit: limit.value, images, pages }),
      });
    }
    const pdfPages = media.pdfPages;
    if (pdfPages === undefined) return;
    for (const item of request.media) {
      if (item.kind !== 'document' || item.pages === undefined || item.pages <= pdfPages.value) continue;
      report({
        entry: analysis.entries.at(item.entry),
        pointer: item.pointer,
        message: `A PDF of ${figure(item.pages)} pages (message ${item.messageIndex}, block ${item.blockIndex}); ${figure(pdfPages.value)} at most (${pdfPages.source}).`,
        ...sizeWords(pdfPages, 'pdfPages', { message: item.messageIndex, block: item.blockIndex, found: item.pages, limit: pdfPages.value }),
      });
    }
  },
};
