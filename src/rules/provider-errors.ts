/**
 * Exact error texts strict providers return (reference/provider-rules.md), with the message
 * index filled in as the provider would count it. Anthropic's wording is the one users search for.
 */

export function functionResponseNameEmpty(messageIndex: number, blockIndex: number): string {
  return `Gemini: * GenerateContentRequest.contents[${messageIndex}].parts[${blockIndex}].function_response.name: Name cannot be empty.`;
}

/** Bedrock Converse's words for a message with empty content, at the message's index in the request. */
export function bedrockEmptyContent(message: number): string {
  return `Bedrock Converse: The content field in the Message object at messages.${message} is empty. Add a ContentBlock object to the content field and try again.`;
}

export const TEXT_BLOCK_EMPTY = 'Anthropic: messages: text content blocks must be non-empty';

export const ALL_MESSAGES_EMPTY = 'Anthropic: messages: at least one message is required';

export function unexpectedServerToolResult(messageIndex: number, blockIndex: number, type: string, id: string): string {
  return (
    `Anthropic: messages.${messageIndex}.content.${blockIndex}: unexpected \`tool_use_id\` found in \`${type}\` blocks: ` +
    `${id}. Each \`${type}\` block must have a corresponding \`server_tool_use\` block before it.`
  );
}

export function toolNamePattern(messageIndex: number, blockIndex: number): string {
  return `Anthropic: messages.${messageIndex}.content.${blockIndex}.tool_use.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
}

export const TEXT_BLOCK_WHITESPACE = 'Anthropic: messages: text content blocks must contain non-whitespace text';

/**
 * Codex's thread history store (the app server behind Codex Desktop and the TUI's thread view)
 * projects a paginated rollout in order and stops at a line whose number goes back, repeats or
 * skips ahead; the CLI's own resume does not read the numbers (the path stands where Codex prints the thread id).
 */
export function historySequenceBroken(expected: number, got: number): string {
  const gap = got > expected ? '; 0 rejected rollout lines cannot cover that gap' : '';
  return `Codex thread history: thread history projection for … expected ordinal ${expected}, got ${got}${gap}`;
}

/** Codex refuses to resume a paginated rollout whose last record carries no number (the path stands where Codex prints it). */
export const RESUME_SEQUENCE_MISSING = 'Codex resume: final paginated rollout record at … is missing an ordinal';

/** Codex's thread history store stops at a line without a number inside a paginated rollout. */
export const HISTORY_SEQUENCE_MISSING = 'Codex thread history: paginated rollout line for … is missing an ordinal';
