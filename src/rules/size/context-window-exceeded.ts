import type { Rule } from '../rule.js';
import { figure, lastSent, measured, sizeWords } from './measured.js';
import { windowWords } from './window.js';

export const contextWindowExceeded: Rule = {
  meta: {
    id: 'context-window-exceeded',
    severity: 'error',
    category: 'size',
    fix: 'none',
    description: "The request a resume would send holds more input tokens than the model's context window.",
    docs: `## What it does
Estimates the input tokens of the request the session's replay path would send (compaction
honoured): the last usage the session itself recorded, plus an estimate of everything after it
(see [How tokens are estimated](../size.md#how-tokens-are-estimated) for the estimator and its
measured error). It compares them with the context window of the model the session names last,
from a table of windows per model family, each with its source (\`src/providers/size/context-windows.ts\`).
A model the table does not know gets its provider's default, and the finding is a warning. When
the session's own recorded usage is over the table's window, the provider took that much, so the
window is taken to be at least that (Claude Sonnet 4 / 4.5 with the 1M beta).

## Why is this bad?
The provider refuses the request, and so every resume fails with the same error. The agent's own
way out does not work either: \`/compact\` and auto-compaction send the same oversized history to
the model to summarise it, and fail the same way (Claude Code #14472, #15896, #23377, #81793;
Codex #19269, #29302; Gemini CLI #14552, #26155; OpenClaw #699, #13624; pi #102). Gemini CLI keeps
no compaction in the file, so a resume restores the whole history (Gemini CLI #20803).

What each provider answers:
- Anthropic (and Claude on Vertex): \`prompt is too long: 215366 tokens > 200000 maximum\`; counting
  \`max_tokens\`: \`input length and \\\`max_tokens\\\` exceed context limit: 193125 + 21333 > 200000, decrease input length or \\\`max_tokens\\\` and try again\`
- Amazon Bedrock: \`ValidationException: Input is too long for requested model.\`
- OpenAI Chat: \`This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.\` (\`code: context_length_exceeded\`)
- OpenAI Responses (Codex): \`Your input exceeds the context window of this model. Please adjust your input and try again.\`; Codex prints \`Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.\`
- Gemini: \`The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).\`
- GitHub Copilot: \`prompt token count of 130532 exceeds the limit of 128000\`
- Mistral (from a pattern only): \`Prompt contains N tokens … too large for model with M maximum context length\`
- Others, as pi-ai's overflow patterns quote them: xAI \`This model's maximum prompt length is 131072 but the request contains 537812 tokens\`; OpenRouter \`This endpoint's maximum context length is X tokens. However, you requested about Y tokens\`; Kimi \`Your request exceeded model token limit: X (requested: Y)\`; MiniMax \`invalid params, context window exceeds limit\`; llama.cpp \`the request exceeds the available context size, try increasing it\`.
- Claude Code's own \`/compact\` then fails with \`Error: Error during compaction: Error: Conversation too long. Press esc twice to go up a few messages and try again.\`

## Example
A Claude Code session on \`claude-sonnet-4-5\` whose last recorded usage is 188,000 tokens, after
which a Read returned a 90,000-character file: about 218,000 tokens, over the 200,000 window.

## Fix
None in repair. \`transcript-doctor slim <session>\` makes the replayed request fit: it stubs images
and trims old tool results, oldest first, and writes the agent's own compaction record when that
is not enough, keeping every user message and the latest turns.`,
  },
  check({ analysis, report }) {
    const { request, judge } = measured(analysis);
    const window = judge.window;
    if (window === undefined || request.tokens.tokens <= window.tokens) return;
    const entry = lastSent(analysis);
    if (entry === undefined) return;
    const at = { message: 0, block: 0, found: request.tokens.tokens, limit: window.tokens };
    report({
      entry,
      message: `The request a resume sends holds about ${figure(request.tokens.tokens)} input tokens (up to ${figure(request.tokens.high)}), over the ${windowWords(judge)}: the provider refuses it, and the agent's own compaction sends the same history, so it cannot run either.`,
      ...sizeWords(judge.gateway ?? judge.provider, 'context', at, window.guessed === true),
    });
  },
};
