import { enforcedBy } from '../../providers/index.js';
import type { Rule } from '../rule.js';
import { contractTerm, worded } from './terms.js';

export const imageLimits: Rule = {
  meta: {
    id: 'image-limits',
    severity: 'error',
    category: 'contract',
    fix: 'none',
    description: "An image in the session has a media type the provider's contract refuses.",
    providers: enforcedBy('image-media-type'),
    docs: `## What it does
Checks the media type of images whose bytes are in the session (base64 in a user message or a
tool result) against the provider the session is judged against: Anthropic (also on Vertex) and
OpenAI Chat take JPEG, PNG, GIF and WebP, declared with the media type their bytes have. Images
given by URL are not checked: their bytes are not in the file. How big an image may be (bytes,
base64 length, pixels) is \`image-too-large\`'s business, measured on the request a resume sends.

## Why is this bad?
The provider rejects the whole request, and every later turn that still carries the image:
\`Image does not match the provided media type image/png\` (a JPEG saved as PNG by a screenshot
tool). A tool that returned such a screenshot breaks the session for good.

## Fix
None in the file: the image must be re-encoded, which repair does not do. Dropping the message
that carries it, or replacing the image with a short text (\`transcript-doctor slim\` does for
images over a limit), makes the session usable.`,
  },
  check({ analysis, report }) {
    const type = contractTerm(analysis, 'image-media-type');
    const limits = type?.contract.images;
    if (type === undefined || limits === undefined) return;
    const store = analysis.entries;
    // A rare field: the lines that carry image bytes are found without a look at the others.
    for (const [index, rare] of store.rare) {
      const images = rare.images;
      if (images === undefined) continue;
      const entry = store.at(index);
      const item = analysis.replay.itemOf(index);
      for (const image of images) {
        const at = { message: item?.messageIndex ?? 0, block: (item?.blockIndex ?? 0) + image.blockIndex, mediaType: image.declared ?? '' };
        const declared = image.declared ?? image.actual;
        if (declared === undefined || !limits.types.includes(declared) || (image.actual !== undefined && image.actual !== declared)) {
          const what = declared === undefined || !limits.types.includes(declared) ? `is ${declared ?? 'of an unknown type'}` : `is declared ${declared} but its bytes are ${image.actual}`;
          report({ entry, pointer: image.pointer, message: `Image ${what}; ${type.contract.name} takes ${limits.types.join(', ')}.`, ...worded(type, at) });
        }
      }
    }
  },
};
