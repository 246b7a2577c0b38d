/** One provider error text `explain` recognises, with the rules whose findings cause it (see catalogue.ts). */

export type Provider =
  | 'Anthropic'
  | 'OpenAI Chat'
  | 'OpenAI Responses'
  | 'Gemini'
  | 'Mistral'
  | 'Bedrock'
  | 'Bedrock Converse'
  | 'MiniMax'
  | 'Codex CLI'
  | 'Qwen Code'
  | 'Claude Code'
  | 'Copilot'
  | 'DashScope'
  | 'xAI'
  | 'OpenRouter'
  | 'Kimi'
  | 'Groq'
  | 'llama.cpp'
  | 'LM Studio'
  | 'pi'
  | 'OpenClaw';

/**
 * What a size-family error is about, which says what its {limit} counts and how a session is
 * matched to it (src/explain/size-rank.ts): input tokens, request bytes, one image's base64 bytes
 * or pixels, media in the request, a PDF's pages, a string's length, tool calls in one message,
 * tools declared, messages sent.
 */
export type SizeQuote = 'tokens' | 'bytes' | 'image-bytes' | 'image-pixels' | 'media' | 'pages' | 'length' | 'calls' | 'tools' | 'messages';

export interface CatalogueEntry {
  /** The rule id in reference/provider-rules.md, with a suffix when one rule has several wordings. */
  ref: string;
  provider: Provider;
  text: string;
  tail?: string;
  /** What the provider is saying, in one sentence for someone who just saw it. */
  meaning: string;
  /** Our rules whose findings cause this error; empty when no rule checks it yet. */
  rules: readonly string[];
  /** Matched in any case: the same words reach users capitalised by one client and not another. */
  anyCase?: boolean;
  /** A size-family error: what it measures (the session is then found by its size, see size-rank.ts). */
  size?: SizeQuote;
  /** Figures some versions append, read when present (see size-catalogue.ts). */
  numbers?: string;
}
