import type { Analysis } from '../model/analysis.js';
import { roleCode } from '../model/entry-bits.js';

/** The role code of messages that are neither user, assistant nor results (see entry.ts Role). */
export const OTHER = roleCode('other');

/**
 * Whether the history's "other" messages are system / developer instructions, which a provider
 * with a system field of its own (Gemini's `systemInstruction`, Bedrock's `system`) takes out of
 * the turns: so in a request line (OpenAI chat and Responses shapes; Anthropic and Gemini keep
 * them outside the list already). Elsewhere they reach the provider as user turns: pi's custom
 * and bash messages, Codex's context messages (written with role user, like the prompt).
 */
export function instructionsApart(analysis: Analysis): boolean {
  return analysis.transcript.conversation != null;
}
