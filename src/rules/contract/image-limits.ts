import { enforcedBy } from '../../providers/index.js';
import type { Rule } from '../rule.js';
import { contractTerm, worded } from './terms.js';

export const imageLimits: Rule = {
  meta: {
    id: 'image-limits',
    severity: 'error',
    category: 'contract',
    fix: 'none',
    description: "An image in the session has a media type or a size the provider's contract refuses.",
    providers: enforcedBy('image-media-type', 'image-size'),
    docs: `## What it does
Checks images whose bytes are in the session (base64 in a user message or a tool result) against
the provider the session is judged against: Anthropic (also on Vertex) takes JPEG, PNG, GIF and
WebP up to 5 MB each, declared with the media type their bytes have; OpenAI Chat takes the same
four formats up to 20 MB. Images given by URL are not checked: their bytes are not in the file.

## Why is this bad?
The provider rejects the whole request, and every later turn that still carries the image:
\`Image does not match the provided media type image/png\` (a JPEG saved as PNG by a screenshot
tool), \`image exceeds 5 MB maximum\`. A tool that returned a large screenshot breaks the session
for good.

## Fix
None in the file: the image must be re-encoded or downscaled, which repair does not do. Dropping
the message that carries it, or replacing the image with a short text, makes the session usable.`,
  },
  check({ analysis, report }) {
    const type = contractTerm(analysis, 'image-media-type');
    const size = contractTerm(analysis, 'image-size');
    const limits = (type ?? size)?.contract.images;
    if (limits === undefined) return;
    const store = analysis.entries;
    // A rare field: the lines that carry image bytes are found without a look at the others.
    for (const [index, rare] of store.rare) {
      const images = rare.images;
      if (images === undefined) continue;
      const entry = store.at(index);
      const item = analysis.replay.itemOf(index);
      for (const image of images) {
        const at = { message: item?.messageIndex ?? 0, block: (item?.blockIndex ?? 0) + image.blockIndex, mediaType: image.declared ?? '', bytes: image.bytes };
        const declared = image.declared ?? image.actual;
        if (type !== undefined && (declared === undefined || !limits.types.includes(declared) || (image.actual !== undefined && image.actual !== declared))) {
          const what = declared === undefined || !limits.types.includes(declared) ? `is ${declared ?? 'of an unknown type'}` : `is declared ${declared} but its bytes are ${image.actual}`;
          report({ entry, pointer: image.pointer, message: `Image ${what}; ${type.contract.name} takes ${limits.types.join(', ')}.`, ...worded(type, at) });
        }
        if (size !== undefined && image.bytes > limits.maxBytes) {
          report({ entry, pointer: image.pointer, message: `Image of ${image.bytes} bytes; ${size.contract.name} takes at most ${limits.maxBytes}.`, ...worded(size, at) });
        }
      }
    }
  },
};
