import { SIZE_SAMPLES } from './size-samples.js';

/**
 * One realistic error per catalogue entry, as the provider returns it (reference/provider-rules.md,
 * placeholders filled with values seen in the reports quoted there), and the rule that explains it
 * in the sessions the tests build.
 */
export const SAMPLES: Record<string, string> = {
  'anth-tool-use-needs-result':
    'messages.14: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01GfghBCkxKjjizDvsyeWy5B, toolu_01Rn7xkqMfF3yYvB5Zz9QeWp. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
  'anth-tool-use-needs-result-older':
    'Did not find 1 tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.',
  'anth-tool-result-orphan':
    'messages.244.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01Qj4a5dWJzJ7c3xJq8yBmXT. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
  'anth-server-tool-result-orphan':
    'messages.31.content.2: unexpected `tool_use_id` found in `advisor_tool_result` blocks: srvtoolu_01Kq8ZbW3mYdN2vEoC7xR5tL. Each `advisor_tool_result` block must have a corresponding `server_tool_use` block before it.',
  'anth-tool-use-id-unique': 'messages.42.content.1: `tool_use` ids must be unique',
  'anth-tool-use-input-required': 'messages.7.content.1.tool_use.input: Field required',
  'anth-tool-name-pattern': "messages.9.content.1.tool_use.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
  'anth-tool-id-charset': "messages.3.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
  'anth-text-nonempty': 'messages: text content blocks must be non-empty',
  'anth-text-nonwhitespace': 'messages: text content blocks must contain non-whitespace text',
  'anth-message-nonempty': 'messages.5: all messages must have non-empty content except for the optional final assistant message',
  'anth-messages-required': 'messages: at least one message is required',
  'oai-chat-tool-calls-need-responses':
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_sU7XBNcR8nNV7j2rvuzYEHCP",
  'oai-chat-tool-calls-need-responses-variant':
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)",
  'oai-chat-tool-msg-orphan': "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
  'oai-chat-tool-msg-orphan-preceding': "Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'.",
  'oai-chat-dup-tool-response': "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_5kQbUQmG3wTzq7Yb2X0nVdLc', in messages[7] and messages[8].",
  'oai-chat-tool-call-id-maxlen':
    "Invalid 'messages[3].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 57 instead.",
  'resp-call-needs-output': 'No tool output found for function call call_sU7XBNcR8nNV7j2rvuzYEHCP.',
  'resp-output-orphan': 'No tool call found for function call output with call_id call_Hc2p9T4bWq1mZrXy8LkVn3Ds.',
  'resp-duplicate-call-id': "Duplicate 'call_id': call_Hc2p9T4bWq1mZrXy8LkVn3Ds",
  'resp-call-id-maxlen':
    "Invalid 'input[12].call_id': string too long. Expected a string with maximum length 64, but got a string with length 71 instead.",
  'codex-resume-ordinal': 'Error: failed to resume session: expected ordinal 12, got 11',
  'codex-resume-ordinal-missing': 'Error: final paginated rollout record at line 86 is missing an ordinal',
  'codex-history-ordinal-missing': 'thread-store internal error: paginated rollout line for 019edda8-7eca-7710-b78b-6ce7607beaa1 is missing an ordinal',
  'qwen-tool-calls-need-responses':
    "400 Invalid request: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: brave_web_search:3",
  'qwen-tool-call-id-not-found': '[API Error: 400 tool_call_id is not found]',
  'qwen-history-gap': 'loadSession: detected 1 unrecoverable history gap(s) for session 7c3e9a52-4b1d-4f6a-9e08-2d5b71c4a9e3: child=1a2b0006-5c4d-4e6f-8a7b-000000000006 missingParent=d41d8cd9-8f00-4b20-9e98-0998ecf8427e',
  'qwen-orphan-repair': 'Tool execution result was not recorded — likely interrupted by network failure, abort, or process exit. Treat as failure and retry if needed.',
  'qwen-result-missing-from-history': 'Tool result missing from saved history',
  'codex-session-meta': 'Error: rollout at /home/dev/.codex/sessions/2026/06/19/rollout-2026-06-19T10-14-27-019edda8-7eca-7710-b78b-6ce7607beaa1.jsonl does not start with session metadata',
  'mis-no-user-after-tool': "Unexpected role 'user' after role 'tool'",
  'gem-thought-signature-valid': 'Corrupted thought signature.',
  'anth-final-assistant-trailing-ws': 'messages: final assistant content cannot end with trailing whitespace',
  'anth-thinking-signature-valid': 'messages.7.content.0: Invalid `signature` in `thinking` block',
  'anth-image-media-type': 'messages.4.content.1.image.source.base64.data: Image does not match the provided media type image/png',
  'anth-image-media-type-allowed': "messages.4.content.1.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
  'oai-chat-image-format-size': "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].",
  'gem-fr-name': '* GenerateContentRequest.contents[18].parts[0].function_response.name: Name cannot be empty.',
  'gem-fr-after-fc': 'Please ensure that function response turn comes immediately after a function call turn.',
  'gem-fc-after-user-or-fr': 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
  'gem-fr-count': 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
  'gem-parts-nonempty': '* GenerateContentRequest.contents[4].parts: contents.parts must not be empty.',
  'gem-text-nonempty':
    'Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini',
  'mis-call-response-count': 'Not the same number of function calls and responses',
  'mis-no-tool-after-user': "Unexpected role 'tool' after role 'user'",
  'mis-assistant-nonempty': 'Assistant message must have either content or tool_calls, but not none.',
  'mis-tool-call-id-format': 'Tool call id was call_Hc2p9T4bWq1mZrXy8LkVn3Ds but must be a-z, A-Z, 0-9, with a length of 9.',
  'brc-toolresult-missing': 'Expected toolResult blocks at messages.6.content for the following Ids: tooluse_kZJMlvQmRJ6eAyJE5GIl7Q, tooluse_9hBf0sRZQ2yWkq3GJvN0pA',
  'brc-toolresult-exceeds': 'The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.',
  'brc-no-mixed-result-turn': 'messages.3.content: Conversation blocks and tool result blocks cannot be provided in the same turn.',
  'brc-first-user': 'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
  'brc-message-nonempty': 'The content field in the Message object at messages.11 is empty. Add a ContentBlock object to the content field and try again.',
  'brc-text-nonblank': 'The text field in the ContentBlock object at messages.4.content.0 is blank. Add text to the text field, and try again.',
  'mmx-pairing-not-found': "invalid params, tool result's tool id(call_function_8n3xk2p9qz1m_1) not found (2013)",
  'mmx-pairing-follow': 'invalid params, tool call result does not follow tool call (2013)',
  'mmx-pairing-match': 'invalid params, tool call and result not match (2013)',
  ...Object.fromEntries(Object.entries(SIZE_SAMPLES).map(([ref, sample]) => [ref, sample.text])),
};
