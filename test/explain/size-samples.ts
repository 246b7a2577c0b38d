import type { QuotedNumbers } from '../../src/explain/patterns.js';

/**
 * One error per size-family catalogue entry, as reported in the threads reference/oversize.md
 * quotes (the figures are theirs), with what explain must read out of it.
 */
export const SIZE_SAMPLES: Record<string, { text: string; messageIndex?: number; blockIndex?: number; numbers: QuotedNumbers }> = {
  'anth-prompt-too-long': { text: 'prompt is too long: 219898 tokens > 200000 maximum', numbers: { tokens: 219898, limit: 200000 } },
  'anth-max-tokens-exceed': {
    text: 'input length and `max_tokens` exceed context limit: 193125 + 21333 > 200000, decrease input length or `max_tokens` and try again',
    numbers: { tokens: 193125, outputTokens: 21333, limit: 200000 },
  },
  'anth-request-too-large': { text: '{"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}', numbers: {} },
  'anth-image-bytes': {
    text: 'messages.16.content.2.tool_result.content.0.image.source.base64: image exceeds 5 MB maximum: 6521204 bytes > 5242880 bytes',
    messageIndex: 16,
    blockIndex: 2,
    numbers: { bytes: 6521204, limit: 5242880, innerIndex: 0 },
  },
  'anth-image-pixels-many': {
    text: 'messages.8.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels',
    messageIndex: 8,
    blockIndex: 0,
    numbers: { limit: 2000 },
  },
  'anth-image-pixels': {
    text: 'messages.7.content.2.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels',
    messageIndex: 7,
    blockIndex: 2,
    numbers: { limit: 8000 },
  },
  'anth-too-much-media': { text: 'Too much media: 0 document pages + 102 images > 100', numbers: { pages: 0, images: 102, limit: 100 } },
  'anth-too-many-media': { text: 'too many images and documents: 104 + 1 > 100', numbers: { images: 104, pages: 1, limit: 100 } },
  'anth-pdf-pages': { text: 'messages.38.content.0.pdf.source.base64.data: A maximum of 100 PDF pages may be provided.', messageIndex: 38, blockIndex: 0, numbers: { limit: 100 } },
  'anth-prompt-too-long-bare': { text: 'API Error: 400 Prompt is too long', numbers: {} },
  'cc-image-base64-size': {
    text: 'Image base64 size (8.4 MB) exceeds API limit (5.0 MB). Please resize the image before sending.',
    numbers: { bytes: 8808038, limit: 5242880, approximate: true },
  },
  'cc-image-many-dimension': {
    text: 'An image in the conversation exceeds the dimension limit for many-image requests (2000px). Start a new session with fewer images.',
    numbers: { limit: 2000 },
  },
  'cc-request-too-large': { text: 'Request too large (max 32MB). Try with a smaller file.', numbers: { limit: 33554432, approximate: true } },
  'cc-compact-too-long': { text: 'Error: Error during compaction: Error: Conversation too long. Press esc twice to go up a few messages and try again.', numbers: {} },
  'brc-input-too-long': { text: 'API Error: 400 Input is too long for requested model.', numbers: {} },
  'brc-body-length': {
    text: "ValidationException: An error occurred (ValidationException) when calling the InvokeModel operation: 1 validation error detected: Value at 'body' failed to satisfy constraint: Member must have length less than or equal to 25000000",
    numbers: { limit: 25000000 },
  },
  'oai-chat-context-length': {
    text: '{"error":{"message":"This model\'s maximum context length is 8192 tokens. However, your messages resulted in 8227 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
    numbers: { limit: 8192, tokens: 8227 },
  },
  'oai-chat-context-length-requested': {
    text: "This model's maximum context length is 4097 tokens. However, you requested 4222 tokens (1222 in the messages, 3000 in the completion). Please reduce the length of the messages or completion.",
    numbers: { limit: 4097, tokens: 1222, outputTokens: 3000 },
  },
  'oai-chat-string-too-long': {
    text: "Invalid 'messages[17].content': string too long. Expected a string with maximum length 1048576, but got a string with length 1744259 instead.",
    messageIndex: 17,
    numbers: { limit: 1048576, length: 1744259 },
  },
  'oai-chat-tool-calls-too-many': {
    text: "Invalid 'messages[21].tool_calls': array too long. Expected an array with maximum length 128, but got an array with length 131 instead.",
    messageIndex: 21,
    numbers: { limit: 128, length: 131 },
  },
  'oai-tools-too-many': {
    text: "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 325 instead.",
    numbers: { limit: 128, length: 325 },
  },
  'oai-messages-too-many': {
    text: "Invalid 'messages': array too long. Expected an array with maximum length 2048, but got an array with length 2050 instead.",
    numbers: { limit: 2048, length: 2050 },
  },
  'resp-context-window': {
    text: '{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}',
    numbers: {},
  },
  'resp-string-too-long': {
    text: "Invalid 'input[0].content': string too long. Expected a string with maximum length 10485760, but got a string with length 62114761 instead.",
    messageIndex: 0,
    numbers: { limit: 10485760, length: 62114761 },
  },
  'codex-context-window': { text: "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.", numbers: {} },
  'gem-input-token-count': {
    text: '{"error":{"code":400,"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","errors":[{"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT"}}',
    numbers: { tokens: 1200293, limit: 1048576 },
  },
  'gem-body-size': {
    text: '{"error":{"message":"Maximum request body size 1048576 exceeded, actual body size 1056562","code":413,"status":"Request Entity Too Large"}}',
    numbers: { limit: 1048576, bytes: 1056562 },
  },
  'gem-text-fields-too-large': { text: 'API Error: Request contains text fields that are too large.', numbers: {} },
  'cp-capi-too-large': {
    text: 'The request is too large to send through CAPI Responses. Try shortening the conversation or prompt. (5.0 MB request; 5.0 MB limit)',
    numbers: { bytes: 5242880, limit: 5242880, approximate: true },
  },
  'cp-capi-attachment-too-large': {
    text: 'Error: The attached image or document is too large to send natively through CAPI Responses. Try a smaller attachment or fewer attachments. (9.1 MB request; 5.0 MB limit)',
    numbers: { bytes: 9542042, limit: 5242880, approximate: true },
  },
  'cp-prompt-token-count': { text: 'prompt token count of 139211 exceeds the limit of 128000', numbers: { tokens: 139211, limit: 128000 } },
  'dashscope-string-length': {
    text: '[API Error: 400 String value length (20054016) exceeds the maximum allowed (20000000, from `StreamReadConstraints.getMaxStringLength()`)]',
    numbers: { length: 20054016, limit: 20000000 },
  },
  'xai-prompt-length': { text: "This model's maximum prompt length is 131072 but the request contains 537812 tokens.", numbers: { limit: 131072, tokens: 537812 } },
  'openrouter-context-length': {
    text: "This endpoint's maximum context length is 163840 tokens. However, you requested about 171256 tokens (163256 of text input, 8000 in the output). Please reduce the length of either one.",
    numbers: { limit: 163840, tokens: 171256 },
  },
  'kimi-token-limit': { text: 'Your request exceeded model token limit: 262144 (requested: 270011)', numbers: { limit: 262144, tokens: 270011 } },
  'mis-prompt-too-large': {
    text: 'Prompt contains 140211 tokens and 0 draft tokens, too large for model with 131072 maximum context length',
    numbers: { tokens: 140211, limit: 131072 },
  },
  'mmx-context-window': { text: 'invalid params, context window exceeds limit (2013)', numbers: {} },
  'llamacpp-context-size': { text: 'the request exceeds the available context size, try increasing it', numbers: {} },
  'lmstudio-context-length': {
    text: 'Trying to keep the first 9452 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input. (tokens to keep from the initial prompt is greater than the context length)',
    numbers: {},
  },
  'groq-reduce-length': {
    text: 'Please reduce the length of the messages or completion.',
    numbers: {},
  },
  'pi-overflow-recovery': {
    text: 'Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.',
    numbers: {},
  },
  'openclaw-overflow': { text: 'Context overflow: prompt too large for the model. Try /reset (or /new) to start a fresh session.', numbers: {} },
  'http-413': { text: 'Model call failed: "413 413 Request Entity Too Large\\n"', numbers: {} },
};
