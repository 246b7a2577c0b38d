import type { CatalogueEntry } from './catalogue-entry.js';

/**
 * The size family of provider errors (reference/oversize.md §1): the request built from the
 * session is too big, or carries media over a limit. Placeholders beyond the pairing ones:
 * {tokens} input tokens counted, {output} max_tokens asked on top, {total} input plus output,
 * {limit} the limit named (tokens, bytes, pixels, pages, length or count as `size` says),
 * {bytes} bytes counted, {mb} and {limitMb} the same in megabytes, {length} a string's or array's
 * length, {pixels} a pixel limit, {images} and {pages} media counted, {inner} the
 * `.tool_result.content.K` of an image inside a tool result, {path} the rest of a field path.
 * `numbers` is a second template read anywhere in the text when it is there (the figures a
 * client appends, which pasted errors often lose).
 */

const CONTEXT = ['context-window-exceeded', 'context-window-near'];
const IMAGE = ['image-too-large', 'image-limits'];
const MEDIA = ['too-much-media'];
const BODY = ['request-too-large'];
const STRING = ['string-too-long'];
const CALLS = ['too-many-tool-calls'];

export const sizeCatalogue: readonly CatalogueEntry[] = [
  // Anthropic Messages API (1P, Vertex AI, Bedrock InvokeModel); Claude Code relays these verbatim
  {
    ref: 'anth-prompt-too-long',
    provider: 'Anthropic',
    text: 'prompt is too long: {tokens} tokens > {limit} maximum',
    anyCase: true,
    size: 'tokens',
    meaning: "the request built from the session is more tokens than the model's context window, so the agent's own compaction (which sends the same history to be summarised) fails too.",
    rules: CONTEXT,
  },
  {
    ref: 'anth-max-tokens-exceed',
    provider: 'Anthropic',
    text: 'input length and `max_tokens` exceed context limit: {tokens} + {output} > {limit}',
    tail: ', decrease input length or `max_tokens` and try again',
    size: 'tokens',
    meaning: "the session's history plus the answer room the agent asks for (max_tokens) is more than the context window.",
    rules: CONTEXT,
  },
  {
    ref: 'anth-request-too-large',
    provider: 'Anthropic',
    text: 'Request exceeds the maximum size',
    size: 'bytes',
    meaning: 'the request body built from the session is over the 32 MB Anthropic takes (HTTP 413 request_too_large), usually from images and large tool outputs.',
    rules: BODY,
  },
  {
    ref: 'anth-image-bytes',
    provider: 'Anthropic',
    text: 'messages.{N}.content.{M}{inner}.image.source.base64: image exceeds 5 MB maximum: {bytes} bytes > {limit} bytes',
    size: 'image-bytes',
    meaning: 'an image in the session (often a screenshot a tool returned) is larger than 5 MB as base64, so every later request that carries it is rejected.',
    rules: IMAGE,
  },
  {
    ref: 'anth-image-pixels-many',
    provider: 'Anthropic',
    text: 'messages.{N}.content.{M}{inner}.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: {limit} pixels',
    size: 'image-pixels',
    meaning: 'the request holds more than 20 images, and then every image must be at most 2000 pixels a side; one in the session is larger.',
    rules: IMAGE,
  },
  {
    ref: 'anth-image-pixels',
    provider: 'Anthropic',
    text: 'messages.{N}.content.{M}{inner}.image.source.base64.data: At least one of the image dimensions exceed max allowed size: {limit} pixels',
    size: 'image-pixels',
    meaning: 'an image in the session is more than 8000 pixels on a side.',
    rules: IMAGE,
  },
  {
    ref: 'anth-too-much-media',
    provider: 'Anthropic',
    text: 'Too much media: {pages} document pages + {images} images > {limit}',
    size: 'media',
    meaning: 'the session holds more images and PDF pages than one request may carry (100 on 200k-token models, 600 on others).',
    rules: MEDIA,
  },
  {
    ref: 'anth-too-many-media',
    provider: 'Anthropic',
    text: 'too many images and documents: {images} + {pages} > {limit}',
    size: 'media',
    meaning: 'the session holds more images and documents than one request may carry (older wording of "Too much media").',
    rules: MEDIA,
  },
  {
    ref: 'anth-pdf-pages',
    provider: 'Anthropic',
    text: 'messages.{N}.content.{M}{inner}.pdf.source.base64.data: A maximum of {limit} PDF pages may be provided.',
    size: 'pages',
    meaning: 'a PDF in the session has more pages than one request may carry.',
    rules: MEDIA,
  },
  {
    ref: 'anth-prompt-too-long-bare',
    provider: 'Anthropic',
    text: 'prompt is too long',
    anyCase: true,
    size: 'tokens',
    meaning: "the request built from the session is more tokens than the model's context window (the text as Claude Code stores it, without the figures), so `/compact` fails too.",
    rules: CONTEXT,
  },

  // Claude Code's own texts, printed before (or instead of) the API error
  {
    ref: 'cc-image-base64-size',
    provider: 'Claude Code',
    text: 'Image base64 size ({mb} MB) exceeds API limit ({limitMb} MB)',
    tail: '. Please resize the image before sending.',
    size: 'image-bytes',
    meaning: 'an image in the session is over the 5 MB (as base64) the API takes; Claude Code refuses to send it.',
    rules: IMAGE,
  },
  {
    ref: 'cc-image-many-dimension',
    provider: 'Claude Code',
    text: 'An image in the conversation exceeds the dimension limit for many-image requests ({limit}px)',
    tail: '. Start a new session with fewer images.',
    size: 'image-pixels',
    meaning: 'the session holds more than 20 images and one is over 2000 pixels a side; there is no need to start a new session once the images are stubbed.',
    rules: IMAGE,
  },
  {
    ref: 'cc-request-too-large',
    provider: 'Claude Code',
    text: 'Request too large (max {limitMb}MB)',
    tail: '. Try with a smaller file.',
    size: 'bytes',
    meaning: 'the request built from the session is over the 32 MB the API takes.',
    rules: BODY,
  },
  {
    ref: 'cc-compact-too-long',
    provider: 'Claude Code',
    text: 'Error during compaction: Error: Conversation too long.',
    tail: ' Press esc twice to go up a few messages and try again.',
    size: 'tokens',
    meaning: '`/compact` sends the whole history to be summarised, and that request is itself over the context window: the session cannot compact itself.',
    rules: CONTEXT,
  },

  // Amazon Bedrock
  {
    ref: 'brc-input-too-long',
    provider: 'Bedrock',
    text: 'Input is too long for requested model',
    anyCase: true,
    size: 'tokens',
    meaning: "the request built from the session is more tokens than the model's context window on Bedrock; a forced compaction sends the same request and fails too.",
    rules: CONTEXT,
  },
  {
    ref: 'brc-body-length',
    provider: 'Bedrock',
    text: "Value at 'body' failed to satisfy constraint: Member must have length less than or equal to {limit}",
    size: 'bytes',
    meaning: 'the request body built from the session is over the 25,000,000 bytes Bedrock InvokeModel takes.',
    rules: BODY,
  },

  // OpenAI Chat Completions (and the many OpenAI-compatible endpoints)
  {
    ref: 'oai-chat-context-length',
    provider: 'OpenAI Chat',
    text: "This model's maximum context length is {limit} tokens. However, your messages resulted in {tokens} tokens",
    tail: '. Please reduce the length of the messages.',
    size: 'tokens',
    meaning: "the messages built from the session are more tokens than the model's context window (context_length_exceeded).",
    rules: CONTEXT,
  },
  {
    ref: 'oai-chat-context-length-requested',
    provider: 'OpenAI Chat',
    text: "This model's maximum context length is {limit} tokens. However, you requested {total} tokens ({tokens} in the messages, {output} in the completion)",
    tail: '. Please reduce the length of the messages or completion.',
    size: 'tokens',
    meaning: "the messages built from the session plus the completion asked for are more tokens than the model's context window.",
    rules: CONTEXT,
  },
  {
    ref: 'oai-chat-string-too-long',
    provider: 'OpenAI Chat',
    text: "Invalid 'messages[{N}]{path}': string too long. Expected a string with maximum length {limit}, but got a string with length {length} instead.",
    size: 'length',
    meaning: 'one message of the session (usually a tool output) is a longer string than the API takes.',
    rules: STRING,
  },
  {
    ref: 'oai-chat-tool-calls-too-many',
    provider: 'OpenAI Chat',
    text: "Invalid 'messages[{N}].tool_calls': array too long. Expected an array with maximum length {limit}, but got an array with length {length} instead.",
    size: 'calls',
    meaning: 'one assistant message of the session makes more tool calls than the API takes in one message (128).',
    rules: CALLS,
  },
  {
    ref: 'oai-tools-too-many',
    provider: 'OpenAI Chat',
    text: "Invalid 'tools': array too long. Expected an array with maximum length {limit}, but got an array with length {length} instead.",
    size: 'tools',
    meaning: 'the agent declares more tools (often from MCP servers) than the API takes (128); the tools are the agent’s configuration, not the session, so disable some servers.',
    rules: [],
  },
  {
    ref: 'oai-messages-too-many',
    provider: 'OpenAI Chat',
    text: "Invalid 'messages': array too long. Expected an array with maximum length {limit}, but got an array with length {length} instead.",
    size: 'messages',
    meaning: 'the session replays more messages than the API takes in one request.',
    rules: [],
  },

  // OpenAI Responses (Codex, Copilot)
  {
    ref: 'resp-context-window',
    provider: 'OpenAI Responses',
    text: 'Your input exceeds the context window of this model.',
    tail: ' Please adjust your input and try again.',
    size: 'tokens',
    meaning: "the input built from the session is more tokens than the model's context window (context_length_exceeded); remote compaction fails the same way.",
    rules: CONTEXT,
  },
  {
    ref: 'resp-string-too-long',
    provider: 'OpenAI Responses',
    text: "Invalid 'input[{N}]{path}': string too long. Expected a string with maximum length {limit}, but got a string with length {length} instead.",
    size: 'length',
    meaning: 'one input item of the session (usually a tool output) is a longer string than the API takes (10,485,760 characters).',
    rules: STRING,
  },
  {
    ref: 'codex-context-window',
    provider: 'Codex CLI',
    text: "Codex ran out of room in the model's context window.",
    tail: ' Start a new thread or clear earlier history before retrying.',
    size: 'tokens',
    meaning: "the history Codex sends from the session is more tokens than the model's context window.",
    rules: CONTEXT,
  },

  // Google Gemini (AI Studio, Vertex, Code Assist); Gemini CLI relays these
  {
    ref: 'gem-input-token-count',
    provider: 'Gemini',
    text: 'The input token count ({tokens}) exceeds the maximum number of tokens allowed ({limit})',
    size: 'tokens',
    meaning: "the history built from the session is more tokens than the model's context window; Gemini CLI keeps no compression in the file, so every resume sends it again.",
    rules: CONTEXT,
  },
  {
    ref: 'gem-body-size',
    provider: 'Gemini',
    text: 'Maximum request body size {limit} exceeded, actual body size {bytes}',
    size: 'bytes',
    meaning: 'the request body built from the session is over the size the endpoint takes (HTTP 413).',
    rules: BODY,
  },
  {
    ref: 'gem-text-fields-too-large',
    provider: 'Gemini',
    text: 'Request contains text fields that are too large.',
    size: 'length',
    meaning: 'one part of the session (usually a tool output) is a longer text than the API takes.',
    rules: STRING,
  },

  // GitHub Copilot (CAPI)
  {
    ref: 'cp-capi-too-large',
    provider: 'Copilot',
    text: 'The request is too large to send through CAPI Responses.',
    tail: ' Try shortening the conversation or prompt.',
    numbers: '({mb} MB request; {limitMb} MB limit)',
    size: 'bytes',
    meaning: 'the request built from the session is over the 5 MB Copilot CAPI takes, and `/compact` sends the same request.',
    rules: BODY,
  },
  {
    ref: 'cp-capi-attachment-too-large',
    provider: 'Copilot',
    text: 'The attached image or document is too large to send natively through CAPI Responses.',
    tail: ' Try a smaller attachment or fewer attachments.',
    numbers: '({mb} MB request; {limitMb} MB limit)',
    size: 'bytes',
    meaning: 'the images and documents in the session take the request over the 5 MB Copilot CAPI takes.',
    rules: [...BODY, 'image-too-large'],
  },
  {
    ref: 'cp-prompt-token-count',
    provider: 'Copilot',
    text: 'prompt token count of {tokens} exceeds the limit of {limit}',
    size: 'tokens',
    meaning: "the history built from the session is more tokens than the model's context window.",
    rules: CONTEXT,
  },

  // Qwen Code on DashScope
  {
    ref: 'dashscope-string-length',
    provider: 'DashScope',
    text: 'String value length ({length}) exceeds the maximum allowed ({limit}',
    tail: ', from `StreamReadConstraints.getMaxStringLength()`)',
    size: 'length',
    meaning: 'the request built from the session holds a string longer than the 20,000,000 characters DashScope reads.',
    rules: STRING,
  },

  // Other OpenAI-compatible endpoints (the overflow patterns pi and OpenClaw recognise)
  {
    ref: 'xai-prompt-length',
    provider: 'xAI',
    text: "This model's maximum prompt length is {limit} but the request contains {tokens} tokens",
    size: 'tokens',
    meaning: "the request built from the session is more tokens than the model's context window.",
    rules: CONTEXT,
  },
  {
    ref: 'openrouter-context-length',
    provider: 'OpenRouter',
    text: "This endpoint's maximum context length is {limit} tokens. However, you requested about {tokens} tokens",
    size: 'tokens',
    meaning: "the request built from the session is more tokens than the routed model's context window.",
    rules: CONTEXT,
  },
  {
    ref: 'kimi-token-limit',
    provider: 'Kimi',
    text: 'Your request exceeded model token limit: {limit} (requested: {tokens})',
    size: 'tokens',
    meaning: "the request built from the session is more tokens than the model's context window.",
    rules: CONTEXT,
  },
  {
    ref: 'mis-prompt-too-large',
    provider: 'Mistral',
    text: 'Prompt contains {tokens} tokens',
    numbers: '{limit} maximum context length',
    size: 'tokens',
    meaning: "the request built from the session is more tokens than the model's context window.",
    rules: CONTEXT,
  },
  {
    ref: 'mmx-context-window',
    provider: 'MiniMax',
    text: 'invalid params, context window exceeds limit',
    size: 'tokens',
    meaning: "the request built from the session is more tokens than the model's context window.",
    rules: CONTEXT,
  },
  {
    ref: 'llamacpp-context-size',
    provider: 'llama.cpp',
    text: 'the request exceeds the available context size, try increasing it',
    size: 'tokens',
    meaning: 'the request built from the session is more tokens than the context size the server was started with.',
    rules: CONTEXT,
  },
  {
    ref: 'lmstudio-context-length',
    provider: 'LM Studio',
    text: 'tokens to keep from the initial prompt is greater than the context length',
    size: 'tokens',
    meaning: 'the request built from the session is more tokens than the context length the model was loaded with.',
    rules: CONTEXT,
  },
  {
    ref: 'groq-reduce-length',
    provider: 'Groq',
    text: 'Please reduce the length of the messages or completion',
    size: 'tokens',
    meaning: "the request built from the session is more tokens than the model's context window.",
    rules: CONTEXT,
  },

  // The agents' own overflow texts
  {
    ref: 'pi-overflow-recovery',
    provider: 'pi',
    text: 'Context overflow recovery failed after one compact-and-retry attempt.',
    tail: ' Try reducing context or switching to a larger-context model.',
    size: 'tokens',
    meaning: 'pi compacted once and the request was still over the context window, so it gave up.',
    rules: CONTEXT,
  },
  {
    ref: 'openclaw-overflow',
    provider: 'OpenClaw',
    text: 'Context overflow: prompt too large for the model.',
    tail: ' Try /reset (or /new) …',
    size: 'tokens',
    meaning: "the request built from the session is more tokens than the model's context window, and compaction did not get it under.",
    rules: CONTEXT,
  },

  // A bare HTTP 413 from a gateway (Copilot chat completions, Cloudflare in front of a provider)
  {
    ref: 'http-413',
    provider: 'Copilot',
    text: '413 Request Entity Too Large',
    anyCase: true,
    size: 'bytes',
    meaning: 'the request body built from the session is over the size the endpoint takes (HTTP 413).',
    rules: BODY,
  },
];
