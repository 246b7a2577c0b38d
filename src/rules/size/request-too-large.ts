import type { Rule } from '../rule.js';
import { figure, lastSent, measured, sizeWords } from './measured.js';

export const requestTooLarge: Rule = {
  meta: {
    id: 'request-too-large',
    severity: 'error',
    category: 'size',
    fix: 'none',
    description: 'The request a resume would send is larger in bytes than the provider (or the gateway in front of it) takes.',
    docs: `## What it does
Estimates the bytes of the request body the replayed path would send (its content as JSON, images
as base64, and the signatures thinking blocks are sent back with, which count no tokens but can
outweigh everything else (which field each agent keeps them in: docs/size.md); the agent's system
prompt and tool definitions, which the file does not hold, come on top) and compares them with the body limit of whoever receives it (\`src/providers/size/size-limits.ts\`):
- Anthropic: 32 MB (read as 32,000,000 bytes, the lower reading); Claude on Vertex the same, as
  its own lower figure is not documented (a warning);
- Amazon Bedrock (InvokeModel): 25,000,000 bytes;
- GitHub Copilot's CAPI, for every Copilot CLI session: 5.0 MB (read as 5,000,000 bytes);
- Gemini: 1,048,576 bytes, seen in one report only (a warning).

## Why is this bad?
A body over the limit is refused before any model sees it, so no compaction the agent runs can
get under it: Copilot's \`/compact\` sends the same request (Copilot CLI #4424, #4183). Large
sessions grow past these limits through images and long tool outputs (Claude Code #9269).
What each answers:
- Anthropic (413): \`{"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}\`; Claude Code: \`Request too large (max 32MB). Try with a smaller file.\`
- Bedrock: \`ValidationException … 1 validation error detected: Value at 'body' failed to satisfy constraint: Member must have length less than or equal to 25000000\`
- Copilot: \`The request is too large to send through CAPI Responses. Try shortening the conversation or prompt. (5.0 MB request; 5.0 MB limit)\`; with images: \`The attached image or document is too large to send natively through CAPI Responses. Try a smaller attachment or fewer attachments. (9.1 MB request; 5.0 MB limit)\`; on chat completions: \`413 Request Entity Too Large\`
- Gemini (413): \`Maximum request body size 1048576 exceeded, actual body size 1056562\`

## Example
A Copilot CLI session whose tools rendered eleven PNG views into its history: a 10.7 MB request.

## Fix
None in repair. \`transcript-doctor slim <session>\` stubs images and trims old tool results until
the body is under the limit.`,
  },
  check({ analysis, report }) {
    const { request, judge } = measured(analysis);
    const limit = judge.limits.requestBytes;
    if (limit === undefined || request.bytes <= limit.value) return;
    const entry = lastSent(analysis);
    if (entry === undefined) return;
    const mediaBytes = request.media.reduce((sum, media) => sum + media.base64Length, 0);
    const images = mediaBytes > 0 ? ` (${figure(mediaBytes)} of them images and documents as base64)` : '';
    report({
      entry,
      message: `The request a resume sends is about ${figure(request.bytes)} bytes${images}; ${figure(limit.value)} at most (${limit.source}).`,
      ...sizeWords(limit, 'requestBytes', { message: 0, block: 0, found: request.bytes, limit: limit.value, withMedia: mediaBytes > 0 }),
    });
  },
};
