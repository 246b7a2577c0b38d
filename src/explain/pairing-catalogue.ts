import type { CatalogueEntry } from './catalogue-entry.js';

/**
 * The pairing and contract family of provider error texts `explain` recognises (reference/provider-rules.md, plus the texts our
 * own rules quote in src/rules/provider-errors.ts and src/providers/), each with the rules whose findings cause it.
 *
 * `text` is the wording as the provider returns it, with placeholders: {N} message index, {M}
 * content-block index, {K} tool-call index, {L} a length, {count} a number, {id} one tool call id,
 * {ids} comma-separated ids, {type} a block type, {i} and {j} two message indices, {ordinal} a
 * rollout line number. `tail` is the rest of the text, which pasted errors often lose (log lines
 * cut at a width, truncated messages): only `text` has to match. The size family, with its own
 * placeholders, is in size-catalogue.ts.
 */

const CALL_UNANSWERED = ['missing-tool-result', 'displaced-tool-result', 'tool-result-not-first'];
const RESULT_UNASKED = ['orphan-tool-result', 'displaced-tool-result', 'duplicate-tool-result', 'result-for-failed-turn'];
const COUNTS_DIFFER = ['missing-tool-result', 'orphan-tool-result', 'displaced-tool-result', 'duplicate-tool-result', 'result-for-failed-turn'];
const EMPTY_MESSAGE = ['empty-error-turn', 'blank-user-message'];
const EMPTY_TEXT = ['empty-text-block', 'blank-user-message'];

export const pairingCatalogue: readonly CatalogueEntry[] = [
  // Anthropic Messages API (1P, Vertex AI, Bedrock InvokeModel)
  {
    ref: 'anth-tool-use-needs-result',
    provider: 'Anthropic',
    text: 'messages.{N}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}',
    tail: '. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    meaning: 'a tool call in the session has no tool result in the message right after it, so every later request is rejected.',
    rules: CALL_UNANSWERED,
  },
  {
    ref: 'anth-tool-use-needs-result-older',
    provider: 'Anthropic',
    text: 'Did not find {count} tool_result block(s) at the beginning of this message.',
    tail: ' Messages following tool_use blocks must begin with a matching number of tool_result blocks.',
    meaning: 'a tool call in the session is not answered at the start of the next message (older wording of the unanswered-call error).',
    rules: CALL_UNANSWERED,
  },
  {
    ref: 'anth-tool-result-orphan',
    provider: 'Anthropic',
    text: 'messages.{N}.content.{M}: unexpected `tool_use_id` found in `tool_result` blocks: {id}',
    tail: '. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    meaning: 'a tool result in the session answers no tool call in the message before it, so every later request is rejected.',
    rules: RESULT_UNASKED,
  },
  {
    ref: 'anth-server-tool-result-orphan',
    provider: 'Anthropic',
    text: 'messages.{N}.content.{M}: unexpected `tool_use_id` found in `{type}` blocks: {id}',
    tail: '. Each `{type}` block must have a corresponding `server_tool_use` block before it.',
    meaning: 'a server-tool result in the session has no server_tool_use block before it in its message.',
    rules: ['orphan-server-tool-result'],
  },
  {
    ref: 'anth-tool-use-id-unique',
    provider: 'Anthropic',
    text: 'messages.{N}.content.{M}: `tool_use` ids must be unique',
    meaning: 'two tool calls in the session share one id.',
    rules: ['duplicate-tool-call-id'],
  },
  {
    ref: 'anth-tool-use-input-required',
    provider: 'Anthropic',
    text: 'messages.{N}.content.{M}.tool_use.input: Field required',
    meaning: 'a tool call in the session has no arguments, usually because it was cut off while streaming.',
    rules: ['partial-tool-call'],
  },
  {
    ref: 'anth-tool-name-pattern',
    provider: 'Anthropic',
    text: "messages.{N}.content.{M}.tool_use.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
    meaning: 'a tool call in the session has a name with characters (or a length) providers reject.',
    rules: ['invalid-tool-name'],
  },
  {
    ref: 'anth-tool-id-charset',
    provider: 'Anthropic',
    text: "messages.{N}.content.{M}.{type}: String should match pattern '^[a-zA-Z0-9_-]+$'",
    meaning: 'a tool call id in the session has characters Anthropic rejects, usually one written by another provider.',
    rules: ['tool-call-id-format'],
  },
  {
    ref: 'anth-text-nonempty',
    provider: 'Anthropic',
    text: 'messages: text content blocks must be non-empty',
    meaning: 'a message in the session has an empty text block.',
    rules: EMPTY_TEXT,
  },
  {
    ref: 'anth-text-nonwhitespace',
    provider: 'Anthropic',
    text: 'messages: text content blocks must contain non-whitespace text',
    meaning: 'a message in the session has a text block of nothing but whitespace.',
    rules: EMPTY_TEXT,
  },
  {
    ref: 'anth-message-nonempty',
    provider: 'Anthropic',
    text: 'messages.{N}: all messages must have non-empty content except for the optional final assistant message',
    meaning: 'a message in the session has no content at all.',
    rules: EMPTY_MESSAGE,
  },
  {
    ref: 'anth-final-assistant-trailing-ws',
    provider: 'Anthropic',
    text: 'messages: final assistant content cannot end with trailing whitespace',
    meaning: 'the session ends with an assistant message whose text ends in whitespace, sent as a prefill.',
    rules: ['final-assistant-whitespace'],
  },
  {
    ref: 'anth-thinking-signature-valid',
    provider: 'Anthropic',
    text: 'messages.{N}.content.{M}: Invalid `signature` in `thinking` block',
    meaning: 'the session replays reasoning another provider, route or model signed.',
    rules: ['foreign-signed-reasoning'],
  },
  {
    ref: 'anth-image-media-type',
    provider: 'Anthropic',
    text: 'messages.{N}.content.{M}.image.source.base64.data: Image does not match the provided media type',
    tail: ' {type}',
    meaning: 'an image in the session is declared with another media type than its bytes have.',
    rules: ['image-limits'],
  },
  {
    ref: 'anth-image-media-type-allowed',
    provider: 'Anthropic',
    text: "messages.{N}.content.{M}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    meaning: 'an image in the session is in a format Anthropic does not take.',
    rules: ['image-limits'],
  },
  {
    ref: 'anth-messages-required',
    provider: 'Anthropic',
    text: 'messages: at least one message is required',
    meaning: 'nothing is left to send once blank messages are dropped.',
    rules: ['blank-user-message'],
  },

  // OpenAI Chat Completions
  {
    ref: 'oai-chat-tool-calls-need-responses',
    provider: 'OpenAI Chat',
    text: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}",
    meaning: 'a tool call in the session has no tool message answering it right after the call.',
    rules: ['missing-tool-result', 'displaced-tool-result'],
  },
  {
    ref: 'oai-chat-tool-calls-need-responses-variant',
    provider: 'OpenAI Chat',
    text: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)",
    meaning: 'a tool call in the session has no tool message answering it right after the call.',
    rules: ['missing-tool-result', 'displaced-tool-result'],
  },
  {
    ref: 'oai-chat-tool-msg-orphan',
    provider: 'OpenAI Chat',
    text: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    meaning: 'a tool result in the session answers no tool call before it.',
    rules: RESULT_UNASKED,
  },
  {
    ref: 'oai-chat-tool-msg-orphan-preceding',
    provider: 'OpenAI Chat',
    text: "Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'.",
    meaning: 'a tool result in the session answers no tool call before it.',
    rules: RESULT_UNASKED,
  },
  {
    ref: 'oai-chat-dup-tool-response',
    provider: 'OpenAI Chat',
    text: "Invalid parameter: Duplicate value for 'tool_call_id' of '{id}', in messages[{i}] and messages[{j}].",
    meaning: 'one tool call in the session is answered twice.',
    rules: ['duplicate-tool-result', 'duplicate-tool-call-id'],
  },
  {
    ref: 'oai-chat-tool-call-id-maxlen',
    provider: 'OpenAI Chat',
    text: "Invalid 'messages[{N}].tool_calls[{K}].id': string too long. Expected a string with maximum length 40, but got a string with length {L} instead.",
    meaning: 'a tool call id in the session is longer than the 40 characters OpenAI allows, usually one written by another provider.',
    rules: ['tool-call-id-format'],
  },

  {
    ref: 'oai-chat-image-format-size',
    provider: 'OpenAI Chat',
    text: 'You uploaded an unsupported image. Please make sure your image is below 20 MB in size',
    tail: " and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].",
    meaning: 'an image in the session is over 20 MB or not a PNG, JPEG, GIF or WebP.',
    rules: ['image-limits'],
  },

  // OpenAI Responses API (also the Codex backend)
  {
    ref: 'resp-call-needs-output',
    provider: 'OpenAI Responses',
    text: 'No tool output found for function call {id}',
    tail: '.',
    meaning: 'a function call in the session has no function_call_output with its call_id.',
    rules: ['missing-tool-result'],
  },
  {
    ref: 'resp-output-orphan',
    provider: 'OpenAI Responses',
    text: 'No tool call found for function call output with call_id {id}',
    tail: '.',
    meaning: 'a function_call_output in the session answers no function call before it.',
    rules: ['orphan-tool-result', 'result-for-failed-turn', 'displaced-tool-result'],
  },
  {
    ref: 'resp-duplicate-call-id',
    provider: 'OpenAI Responses',
    text: "Duplicate 'call_id': {id}",
    meaning: 'two function calls in the session share one call_id.',
    rules: ['duplicate-tool-call-id'],
  },
  {
    ref: 'resp-call-id-maxlen',
    provider: 'OpenAI Responses',
    text: "Invalid 'input[{N}].call_id': string too long. Expected a string with maximum length 64, but got a string with length {L} instead.",
    meaning: 'a call_id in the session is longer than the 64 characters the Responses API allows.',
    rules: ['tool-call-id-format'],
  },

  // Codex itself, refusing a rollout it cannot read (openai/codex #40630, #41657, #45150)
  {
    ref: 'codex-resume-ordinal',
    provider: 'Codex CLI',
    text: 'expected ordinal {ordinal}, got {ordinal}',
    meaning: "the line numbers (`ordinal`) of a paginated rollout do not count up by one, so Codex's thread history (the app server, Codex Desktop) stops at that line.",
    rules: ['sequence-out-of-order'],
  },
  {
    ref: 'codex-resume-ordinal-missing',
    provider: 'Codex CLI',
    text: 'final paginated rollout record',
    tail: ' … is missing an ordinal',
    meaning: 'the last line of a paginated rollout has no line number (`ordinal`), so Codex will not resume the session.',
    rules: ['missing-sequence-number'],
  },
  {
    ref: 'codex-history-ordinal-missing',
    provider: 'Codex CLI',
    text: 'paginated rollout line for',
    tail: ' … is missing an ordinal',
    meaning: "a line of a paginated rollout has no line number (`ordinal`), so Codex's thread history (the app server, Codex Desktop) stops at that line.",
    rules: ['missing-sequence-number'],
  },
  {
    ref: 'codex-session-meta',
    provider: 'Codex CLI',
    text: 'does not start with session metadata',
    meaning: 'the first line of the rollout is not a `session_meta` Codex can read (a missing field, an id that is not a UUID, a dynamic tool without its schema), so Codex will not resume the session.',
    rules: ['invalid-header'],
  },

  // Qwen Code, and the OpenAI-compatible endpoints it talks to (QwenLM/qwen-code #199, #6501, #9573)
  {
    ref: 'qwen-tool-calls-need-responses',
    provider: 'Qwen Code',
    text: "an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}",
    meaning: "a tool call in the session has no tool result after it; the OpenAI-compatible endpoint Qwen Code sends the history to (DashScope's wording) rejects every later request.",
    rules: ['missing-tool-result', 'displaced-tool-result'],
  },
  {
    ref: 'qwen-tool-call-id-not-found',
    provider: 'Qwen Code',
    text: 'tool_call_id is not found',
    meaning: 'a tool result in the session answers no tool call before it; the OpenAI-compatible endpoint rejects every later request.',
    rules: RESULT_UNASKED,
  },
  {
    ref: 'qwen-history-gap',
    provider: 'Qwen Code',
    text: 'unrecoverable history gap(s)',
    tail: ' for session … child=… missingParent=…',
    meaning: "a record's `parentUuid` names a record that is not in the file, so Qwen Code resumed without everything written before it.",
    rules: ['unknown-parent'],
  },
  {
    ref: 'qwen-orphan-repair',
    provider: 'Qwen Code',
    text: 'Tool execution result was not recorded',
    tail: ' — likely interrupted by network failure, abort, or process exit. Treat as failure and retry if needed.',
    meaning: 'a tool call in the session has no result; Qwen Code answered it with this text in memory when it resumed, and the file still lacks it.',
    rules: ['missing-tool-result'],
  },
  {
    ref: 'qwen-result-missing-from-history',
    provider: 'Qwen Code',
    text: 'Tool result missing from saved history',
    meaning: 'a tool call in the session has no result; Qwen Code shows this placeholder for it.',
    rules: ['missing-tool-result'],
  },

  // Google Gemini (AI Studio and Vertex)
  {
    ref: 'gem-fr-name',
    provider: 'Gemini',
    text: 'GenerateContentRequest.contents[{N}].parts[{M}].function_response.name: Name cannot be empty.',
    meaning: 'a tool result in the session does not name the tool it answers.',
    rules: ['missing-tool-result-name'],
  },
  {
    ref: 'gem-fr-after-fc',
    provider: 'Gemini',
    text: 'Please ensure that function response turn comes immediately after a function call turn.',
    meaning: 'a tool result in the session does not directly follow the call it answers, or answers no call.',
    rules: [...RESULT_UNASKED, 'kept-history-pairing'],
  },
  {
    ref: 'gem-fc-after-user-or-fr',
    provider: 'Gemini',
    text: 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
    meaning: 'a tool call in the session follows an earlier call whose results never came, or another assistant message, or opens the history.',
    rules: ['missing-tool-result', 'displaced-tool-result', 'call-turn-order'],
  },
  {
    ref: 'gem-thought-signature-valid',
    provider: 'Gemini',
    text: 'Corrupted thought signature.',
    meaning: 'the session replays reasoning another provider or model signed.',
    rules: ['foreign-signed-reasoning'],
  },
  {
    ref: 'gem-fr-count',
    provider: 'Gemini',
    text: 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
    meaning: 'a turn of tool calls in the session is answered by more or fewer results than it made calls.',
    // Gemini CLI sessions: the pairing of the history its log replays.
    rules: [...COUNTS_DIFFER, 'kept-history-pairing'],
  },
  {
    ref: 'gem-parts-nonempty',
    provider: 'Gemini',
    text: 'GenerateContentRequest.contents[{N}].parts: contents.parts must not be empty.',
    meaning: 'a message in the session has no content at all.',
    rules: EMPTY_MESSAGE,
  },
  {
    ref: 'gem-text-nonempty',
    provider: 'Gemini',
    text: 'Unable to submit request because it has an empty text parameter.',
    tail: ' Add a value to the parameter and try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini',
    meaning: 'a message in the session has an empty text part.',
    rules: EMPTY_TEXT,
  },

  // Mistral
  {
    ref: 'mis-call-response-count',
    provider: 'Mistral',
    text: 'Not the same number of function calls and responses',
    meaning: 'the session has more tool calls than results, or more results than calls.',
    rules: [...COUNTS_DIFFER, 'duplicate-tool-call-id'],
  },
  {
    ref: 'mis-no-tool-after-user',
    provider: 'Mistral',
    text: "Unexpected role 'tool' after role 'user'",
    meaning: 'a tool result in the session comes after a user message instead of right after its call.',
    rules: RESULT_UNASKED,
  },
  {
    ref: 'mis-assistant-nonempty',
    provider: 'Mistral',
    text: 'Assistant message must have either content or tool_calls, but not none.',
    meaning: 'an assistant turn in the session is empty, usually a failed request that was stored anyway.',
    rules: ['empty-error-turn'],
  },
  {
    ref: 'mis-tool-call-id-format',
    provider: 'Mistral',
    text: 'Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.',
    meaning: 'a tool call id in the session is not the 9 letters and digits Mistral requires, usually one written by another provider.',
    rules: ['tool-call-id-format'],
  },
  {
    ref: 'mis-no-user-after-tool',
    provider: 'Mistral',
    text: "Unexpected role 'user' after role 'tool'",
    meaning: 'a user message in the session comes right after tool results, with no assistant message between.',
    rules: ['user-after-tool-result'],
  },

  // AWS Bedrock Converse
  {
    ref: 'brc-toolresult-missing',
    provider: 'Bedrock Converse',
    text: 'Expected toolResult blocks at messages.{N}.content for the following Ids: {ids}',
    meaning: 'a tool call in the session has no tool result in the next turn.',
    rules: ['missing-tool-result', 'displaced-tool-result'],
  },
  {
    ref: 'brc-toolresult-exceeds',
    provider: 'Bedrock Converse',
    text: 'The number of toolResult blocks at messages.{N}.content exceeds the number of toolUse blocks of previous turn.',
    meaning: 'a turn in the session has tool results that answer no call of the turn before it.',
    rules: RESULT_UNASKED,
  },
  {
    ref: 'brc-no-mixed-result-turn',
    provider: 'Bedrock Converse',
    text: 'messages.{N}.content: Conversation blocks and tool result blocks cannot be provided in the same turn.',
    meaning: 'a message in the session mixes tool results with text that comes before them.',
    rules: ['tool-result-not-first'],
  },
  {
    ref: 'brc-first-user',
    provider: 'Bedrock Converse',
    text: 'A conversation must start with a user message.',
    tail: ' Try again with a conversation that starts with a user message.',
    meaning: 'the history the session sends opens with an assistant message (after head truncation or a cut).',
    rules: ['first-message-user'],
  },
  {
    ref: 'brc-message-nonempty',
    provider: 'Bedrock Converse',
    text: 'The content field in the Message object at messages.{N} is empty.',
    tail: ' Add a ContentBlock object to the content field and try again.',
    meaning: 'a message in the session has no content at all.',
    rules: EMPTY_MESSAGE,
  },
  {
    ref: 'brc-text-nonblank',
    provider: 'Bedrock Converse',
    text: 'The text field in the ContentBlock object at messages.{N}.content.{M} is blank.',
    tail: ' Add text to the text field, and try again.',
    meaning: 'a message in the session has an empty or whitespace-only text block.',
    rules: EMPTY_TEXT,
  },

  // MiniMax (code 2013), which OpenClaw repairs like Anthropic
  {
    ref: 'mmx-pairing-not-found',
    provider: 'MiniMax',
    text: "invalid params, tool result's tool id({id}) not found (2013)",
    meaning: 'a tool result in the session answers no tool call.',
    rules: RESULT_UNASKED,
  },
  {
    ref: 'mmx-pairing-follow',
    provider: 'MiniMax',
    text: 'invalid params, tool call result does not follow tool call (2013)',
    meaning: 'a tool result in the session does not directly follow its call, or a call has no result.',
    rules: [...CALL_UNANSWERED, 'orphan-tool-result', 'result-for-failed-turn'],
  },
  {
    ref: 'mmx-pairing-match',
    provider: 'MiniMax',
    text: 'invalid params, tool call and result not match (2013)',
    meaning: 'the tool calls and results of a turn in the session do not pair up.',
    rules: [...COUNTS_DIFFER, 'duplicate-tool-call-id'],
  },
];
