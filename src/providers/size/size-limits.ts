import type { ProviderId } from '../provider-id.js';
import type { ContextWindow } from './context-windows.js';
import type { Gateway } from './gateway.js';
import { limit, lower, type Limit } from './sourced.js';

/** What a provider takes of images in one request. */
export interface ImageSizeLimits {
  /** Characters of an image's base64 text (Anthropic counts the 5 MB on it, not on the decoded bytes). */
  base64Length?: Limit;
  /** Decoded bytes of one image. */
  bytes?: Limit;
  /** Pixels along either side. */
  pixels?: Limit;
  /** Once a request holds more than `over` images, each side at most `pixels`. */
  manyImages?: { over: Limit; pixels: Limit };
}

/** Images plus PDF pages in one request, and the pages of the PDFs in it. */
export interface MediaLimits {
  /** The count for a model with a window up to `largeFrom` tokens. */
  perRequest: Limit;
  /** The count for models whose window is larger than `largeFrom` tokens (Anthropic: 600 once past 200k). */
  larger?: { above: number; perRequest: Limit };
  pdfPages?: Limit;
}

/** Every size limit a request meets besides the context window (contextWindow). Absent: none known. */
export interface SizeLimits {
  /** Bytes of the request body. */
  requestBytes?: Limit;
  /** Characters of one string in the request (a message's content, a tool result's text). */
  stringLength?: Limit;
  /** Tool calls in one assistant message. */
  toolCallsPerMessage?: Limit;
  /** Tool definitions in one request. */
  tools?: Limit;
  image: ImageSizeLimits;
  media?: MediaLimits;
}

const ANTHROPIC_API = 'docs.anthropic.com/en/api/overview ("maximum request size of 32 MB … 413 request_too_large"), read as 32,000,000 bytes, the lower reading';
const VISION = 'platform.claude.com/docs/en/build-with-claude/vision';
const CC_LIMITS = 'Claude Code constants/apiLimits.ts (API_IMAGE_MAX_BASE64_SIZE = 5 * 1024 * 1024, on the base64 length); CC #2939';

function anthropicLike(by: ProviderId, requestBytes: Limit): SizeLimits {
  return {
    requestBytes,
    image: {
      base64Length: limit(by, 5_242_880, CC_LIMITS),
      pixels: limit(by, 8000, `${VISION}; CC #4778, #11576`),
      manyImages: { over: limit(by, 20, VISION), pixels: limit(by, 2000, `${VISION}; CC #23446, #24630`) },
    },
    media: {
      perRequest: limit(by, 100, `${VISION} (100 on models with a 200k-token window); CC #19822, #3397`),
      larger: { above: 200_000, perRequest: limit(by, 600, `${VISION} (600 on all other models)`) },
      pdfPages: limit(by, 100, 'docs.anthropic.com/en/docs/build-with-claude/pdf-support; CC #6231, #5707'),
    },
  };
}

const OPENAI_TOOLS = 'OpenAI: "Invalid \'tools\': array too long … maximum length 128" (vishalmysore/Tools4AI #16; zed #32946)';

const PROVIDERS: Record<ProviderId, SizeLimits> = {
  anthropic: anthropicLike('anthropic', limit('anthropic', 32_000_000, ANTHROPIC_API)),
  // The 32 MB is "lower on some partner-operated platforms" (vision docs); Vertex's own figure is not in the sources.
  vertex: anthropicLike('vertex', limit('vertex', 32_000_000, `${ANTHROPIC_API}; Vertex's own lower limit is not documented`, 'unconfirmed')),
  bedrock: anthropicLike(
    'bedrock',
    limit('bedrock', 25_000_000, "InvokeModel: \"Value at 'body' failed to satisfy constraint: Member must have length less than or equal to 25000000\" (langchain-ai/langchain-aws #419)"),
  ),
  'openai-chat': {
    // A 2024 report (gptscript-ai/clio #41); the current Chat limit is not confirmed.
    stringLength: limit('openai-chat', 1_048_576, "OpenAI Chat: \"Invalid 'messages[17].content': string too long … maximum length 1048576\" (gptscript-ai/clio #41, 2024)", 'unconfirmed'),
    toolCallsPerMessage: limit('openai-chat', 128, "OpenAI Chat: \"Invalid 'messages[2].tool_calls': array too long … maximum length 128\" (openai/openai-dotnet #317)"),
    tools: limit('openai-chat', 128, OPENAI_TOOLS),
    image: { bytes: limit('openai-chat', 20 * 1024 * 1024, 'OpenAI Chat: "Please make sure your image is below 20 MB in size" (reference/provider-rules.md §2)') },
  },
  'openai-responses': {
    stringLength: limit('openai-responses', 10_485_760, "OpenAI Responses: \"Invalid 'input[0].content': string too long … maximum length 10485760\", code string_above_max_length (VectorlyApp/bluebox #31)"),
    tools: limit('openai-responses', 128, OPENAI_TOOLS),
    image: {},
  },
  gemini: {
    // GC #13776 quotes the 413; which layer enforces it is not known.
    requestBytes: limit('gemini', 1_048_576, 'Gemini: "Maximum request body size 1048576 exceeded" (Gemini CLI #13776)', 'unconfirmed'),
    image: {},
  },
  mistral: { image: {} },
};

const GATEWAYS: Record<Gateway, SizeLimits> = {
  copilot: {
    // "5.0 MB" in its texts, read as 5,000,000 bytes, the lower reading.
    requestBytes: limit('copilot', 5_000_000, 'Copilot CAPI: "The request is too large to send through CAPI Responses … (5.0 MB request; 5.0 MB limit)" (Copilot CLI #4424, #4183, #3767)'),
    toolCallsPerMessage: limit('copilot', 128, "Copilot CLI #669 (\"Invalid 'messages[21].tool_calls': array too long … maximum length 128\")"),
    image: {},
  },
  dashscope: {
    stringLength: limit('dashscope', 20_000_000, 'DashScope: "String value length (20054016) exceeds the maximum allowed (20000000 …)" (Qwen Code #747, #1082)'),
    image: {},
  },
};

function merge(a: SizeLimits, b: SizeLimits): SizeLimits {
  const many = a.image.manyImages ?? b.image.manyImages;
  const media = a.media ?? b.media;
  const merged: SizeLimits = { image: {} };
  const set = <K extends 'requestBytes' | 'stringLength' | 'toolCallsPerMessage' | 'tools'>(key: K) => {
    const value = lower(a[key], b[key]);
    if (value !== undefined) merged[key] = value;
  };
  set('requestBytes');
  set('stringLength');
  set('toolCallsPerMessage');
  set('tools');
  for (const key of ['base64Length', 'bytes', 'pixels'] as const) {
    const value = lower(a.image[key], b.image[key]);
    if (value !== undefined) merged.image[key] = value;
  }
  if (many !== undefined) merged.image.manyImages = many;
  if (media !== undefined) merged.media = media;
  return merged;
}

/**
 * The size limits a request to `provider` meets, through `gateway` when the agent's requests pass
 * one (the lower of the two where both set a limit). No provider: the gateway's alone, or none.
 */
export function sizeLimits(provider: ProviderId | undefined, gateway?: Gateway): SizeLimits {
  const own = provider === undefined ? { image: {} } : PROVIDERS[provider];
  return gateway === undefined ? own : merge(own, GATEWAYS[gateway]);
}

/** The media count that applies to a model with this window (Anthropic: 100 up to 200k tokens, 600 above). */
export function mediaLimit(limits: SizeLimits, window: ContextWindow | undefined): Limit | undefined {
  const media = limits.media;
  if (media === undefined) return undefined;
  return media.larger !== undefined && window !== undefined && window.tokens > media.larger.above ? media.larger.perRequest : media.perRequest;
}

