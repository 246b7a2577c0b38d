import type { Route } from './sourced.js';

/** Where a size problem sits and how big it is, for a provider's own wording of it. */
export interface SizeAt {
  /** Message index of the request, and the content block inside it. */
  message: number;
  block: number;
  /** The block inside a tool result's content, for an image there (Anthropic's `tool_result.content.K`). */
  inner?: number;
  inToolResult?: boolean;
  /** Tokens (or bytes, characters, calls, images) found, and the limit. */
  found: number;
  limit: number;
  /** For the media count: images and PDF pages. */
  images?: number;
  pages?: number;
  /** The request carries images or documents (Copilot words a body too large with them apart). */
  withMedia?: boolean;
}

export type SizeProblem = 'context' | 'requestBytes' | 'stringLength' | 'toolCalls' | 'imageBytes' | 'imagePixels' | 'manyImagePixels' | 'media' | 'pdfPages';

type Texts = Partial<Record<SizeProblem, (at: SizeAt) => string>>;

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** Anthropic's path to an image: inside a tool result it is one level deeper. */
const imagePath = (at: SizeAt) =>
  at.inToolResult === true
    ? `messages.${at.message}.content.${at.block}.tool_result.content.${at.inner ?? 0}.image.source.base64`
    : `messages.${at.message}.content.${at.block}.image.source.base64`;

const anthropic: Texts = {
  context: (at) => `prompt is too long: ${at.found} tokens > ${at.limit} maximum`,
  requestBytes: () => 'request_too_large: Request exceeds the maximum size',
  imageBytes: (at) => `${imagePath(at)}: image exceeds 5 MB maximum: ${at.found} bytes > ${at.limit} bytes`,
  imagePixels: (at) => `${imagePath(at)}.data: At least one of the image dimensions exceed max allowed size: ${at.limit} pixels`,
  manyImagePixels: (at) => `${imagePath(at)}.data: At least one of the image dimensions exceed max allowed size for many-image requests: ${at.limit} pixels`,
  media: (at) => `Too much media: ${at.pages ?? 0} document pages + ${at.images ?? 0} images > ${at.limit}`,
  pdfPages: (at) => `messages.${at.message}.content.${at.block}.pdf.source.base64.data: A maximum of ${at.limit} PDF pages may be provided.`,
};

const bedrock: Texts = {
  ...anthropic,
  context: () => 'ValidationException: Input is too long for requested model.',
  requestBytes: (at) =>
    `ValidationException: 1 validation error detected: Value at 'body' failed to satisfy constraint: Member must have length less than or equal to ${at.limit}`,
};

const TOOL_CALLS = (at: SizeAt) =>
  `Invalid 'messages[${at.message}].tool_calls': array too long. Expected an array with maximum length ${at.limit}, but got an array with length ${at.found} instead.`;

/** Each provider's (and gateway's) own words for the size problems it rejects; absent: its wording is not known. */
const TEXTS: Record<Route, Texts> = {
  anthropic,
  vertex: anthropic,
  bedrock,
  'openai-chat': {
    context: (at) =>
      `This model's maximum context length is ${at.limit} tokens. However, your messages resulted in ${at.found} tokens. Please reduce the length of the messages.`,
    stringLength: (at) =>
      `Invalid 'messages[${at.message}].content': string too long. Expected a string with maximum length ${at.limit}, but got a string with length ${at.found} instead.`,
    toolCalls: TOOL_CALLS,
    imageBytes: () =>
      "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].",
  },
  'openai-responses': {
    context: () => 'Your input exceeds the context window of this model. Please adjust your input and try again.',
    stringLength: (at) =>
      `Invalid 'input[${at.message}].content': string too long. Expected a string with maximum length ${at.limit}, but got a string with length ${at.found} instead.`,
  },
  gemini: {
    context: (at) => `The input token count (${at.found}) exceeds the maximum number of tokens allowed (${at.limit}).`,
    requestBytes: (at) => `Maximum request body size ${at.limit} exceeded, actual body size ${at.found}`,
  },
  // Mistral's wording is known only from a pattern in pi-ai's overflow.ts.
  mistral: { context: (at) => `Prompt contains ${at.found} tokens … too large for model with ${at.limit} maximum context length` },
  copilot: {
    context: (at) => `prompt token count of ${at.found} exceeds the limit of ${at.limit}`,
    requestBytes: (at) =>
      at.withMedia === true
        ? `The attached image or document is too large to send natively through CAPI Responses. Try a smaller attachment or fewer attachments. (${mb(at.found)} request; ${mb(at.limit)} limit)`
        : `The request is too large to send through CAPI Responses. Try shortening the conversation or prompt. (${mb(at.found)} request; ${mb(at.limit)} limit)`,
    toolCalls: TOOL_CALLS,
  },
  dashscope: {
    stringLength: (at) => `String value length (${at.found}) exceeds the maximum allowed (${at.limit}, from \`StreamReadConstraints.getMaxStringLength()\`)`,
  },
};

/** The error `route` returns for a size problem, in its own words; undefined when they are not known. */
export function sizeText(route: Route | undefined, problem: SizeProblem, at: SizeAt): string | undefined {
  return route === undefined ? undefined : TEXTS[route][problem]?.(at);
}
