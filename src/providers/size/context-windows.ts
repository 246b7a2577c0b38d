import type { ProviderId } from '../provider-id.js';
import type { Gateway } from './gateway.js';

/**
 * How many input tokens a model takes, per model family, each with its source (the windows the
 * providers document, and the tables two clients that run here keep: Qwen Code 0.24.4's
 * `packages/core/src/core/tokenLimits.ts` and pi-ai 0.73.1's `models.generated.js`, both under
 * test/interop/node_modules). Where a family has two windows, the table holds the one a request
 * gets without opting in, so "fits" is never said on the larger one by guess.
 */
export interface ContextWindow {
  /** Input tokens the request may hold. */
  tokens: number;
  /** The family matched (`claude-sonnet-4-6`), or `default` for a model the table does not know. */
  family: string;
  source: string;
  /** The model is unknown (or the file names none): the window is the provider's default, and findings say so. */
  guessed?: true;
  /**
   * A larger window the same model runs with when the client opts in (Claude Sonnet 4 / 4.5 with
   * the 1M beta). A session whose own recorded usage is over `tokens` was sent with this one.
   */
  larger?: number;
}

interface Family {
  family: string;
  pattern: RegExp;
  tokens: number;
  source: string;
  larger?: number;
}

const CLAUDE_DOCS = 'platform.claude.com/docs/en/build-with-claude/context-windows; pi-ai 0.73.1 models.generated.js';
const CLAUDE_1M = `${CLAUDE_DOCS} (1M: Opus 4.6–4.8, Sonnet 4.6 and the 5.x models)`;
const QWEN_CODE = 'Qwen Code 0.24.4 packages/core/src/core/tokenLimits.ts';
const PI_AI = 'pi-ai 0.73.1 models.generated.js';
const GPT5_INPUT = `400,000 context − 128,000 output (${QWEN_CODE}; Codex records model_context_window 272000)`;

/** First match wins, so narrower families come before the family they belong to. */
const FAMILIES: readonly Family[] = [
  { family: 'claude-[1m]', pattern: /\[1m\]/, tokens: 1_000_000, source: "Claude Code's [1m] model alias (1M-token window)" },
  { family: 'claude-5', pattern: /claude-(?:fable|mythos|opus|sonnet)-5/, tokens: 1_000_000, source: CLAUDE_1M },
  { family: 'claude-haiku-5-5', pattern: /claude-haiku-5[-.]5/, tokens: 1_000_000, source: CLAUDE_1M },
  { family: 'claude-opus-4-6+', pattern: /claude-opus-4[-.][678]/, tokens: 1_000_000, source: CLAUDE_1M },
  { family: 'claude-sonnet-4-6', pattern: /claude-sonnet-4[-.]6/, tokens: 1_000_000, source: CLAUDE_1M },
  {
    family: 'claude-sonnet-4',
    pattern: /claude-sonnet-4/,
    tokens: 200_000,
    larger: 1_000_000,
    source: `${CLAUDE_DOCS} (1M only with the context-1m-2025-08-07 beta header, retired 2026-04-30)`,
  },
  { family: 'claude', pattern: /claude/, tokens: 200_000, source: `${CLAUDE_DOCS} ("other Claude models … 200k")` },
  { family: 'gpt-5-chat', pattern: /gpt-5[\w.]*-chat|codex-spark/, tokens: 128_000, source: PI_AI },
  { family: 'gpt-5', pattern: /gpt-5|codex/, tokens: 272_000, source: GPT5_INPUT },
  { family: 'gpt-4.1', pattern: /gpt-4\.1/, tokens: 1_047_576, source: `platform.openai.com/docs/models/gpt-4.1; ${PI_AI}` },
  { family: 'gpt-4o', pattern: /gpt-4o|gpt-4-turbo/, tokens: 128_000, source: `platform.openai.com/docs/models/gpt-4o; ${PI_AI}` },
  { family: 'gpt-4-32k', pattern: /gpt-4-32k/, tokens: 32_768, source: 'openai.com/index/gpt-4-research' },
  { family: 'gpt-4', pattern: /gpt-4/, tokens: 8_192, source: PI_AI },
  { family: 'gpt-3.5-turbo', pattern: /gpt-3\.5-turbo/, tokens: 16_385, source: 'platform.openai.com/docs/models/gpt-3.5-turbo' },
  { family: 'gpt-oss', pattern: /gpt-oss/, tokens: 131_072, source: 'openai.com/index/introducing-gpt-oss (128k context)' },
  { family: 'o1-mini', pattern: /(?:^|[/.])o1-mini/, tokens: 128_000, source: 'platform.openai.com/docs/models/o1-mini' },
  { family: 'o-series', pattern: /(?:^|[/.])o[134](?:-|$)/, tokens: 200_000, source: `platform.openai.com/docs/models/o3; ${PI_AI}; ${QWEN_CODE}` },
  { family: 'gemini-1.5-pro', pattern: /gemini-1\.5-pro/, tokens: 2_097_152, source: 'ai.google.dev/gemini-api/docs/long-context' },
  {
    family: 'gemini',
    pattern: /gemini/,
    tokens: 1_048_576,
    source: 'ai.google.dev/gemini-api/docs/models ("Input token limit 1,048,576"); the limit Gemini CLI users quote in "exceeds the maximum number of tokens allowed (1048576)"',
  },
  { family: 'qwen-1m', pattern: /qwen3-coder-(?:plus|flash)|qwen3\.\d|qwen-(?:plus|flash)-latest|^coder-model$/, tokens: 1_000_000, source: QWEN_CODE },
  { family: 'qwen', pattern: /qwen/, tokens: 262_144, source: `${QWEN_CODE} (qwen3-max, open Qwen3: 256K)` },
  { family: 'deepseek-v4', pattern: /deepseek-(?:v4|flash)/, tokens: 1_000_000, source: QWEN_CODE },
  { family: 'deepseek', pattern: /deepseek/, tokens: 128_000, source: `api-docs.deepseek.com (128K); ${QWEN_CODE}` },
  { family: 'glm-5.0/5.1', pattern: /glm-5(?:\.[01])?(?:-|$)/, tokens: 202_752, source: `${QWEN_CODE}; ${PI_AI}` },
  { family: 'glm-5.2+', pattern: /glm-(?:[5-9]|\d{2,})/, tokens: 1_000_000, source: QWEN_CODE },
  { family: 'glm', pattern: /glm/, tokens: 202_752, source: QWEN_CODE },
  { family: 'minimax-m3', pattern: /minimax-m3/, tokens: 1_000_000, source: QWEN_CODE },
  { family: 'minimax-m2.5', pattern: /minimax-m2\.5/, tokens: 196_608, source: `${QWEN_CODE}; ${PI_AI}` },
  { family: 'minimax', pattern: /minimax/, tokens: 200_000, source: QWEN_CODE },
  { family: 'kimi-k3', pattern: /kimi-k3/, tokens: 1_000_000, source: QWEN_CODE },
  { family: 'kimi', pattern: /kimi/, tokens: 262_144, source: QWEN_CODE },
  { family: 'grok-4-fast', pattern: /grok-4(?:\.\d+)?-fast|grok-4\.20/, tokens: 2_000_000, source: PI_AI },
  { family: 'grok-4', pattern: /grok-4|grok-code-fast/, tokens: 256_000, source: `docs.x.ai/docs/models; ${PI_AI}` },
  { family: 'grok-3', pattern: /grok-3/, tokens: 131_072, source: 'docs.x.ai/docs/models; the xAI overflow text quotes 131072' },
  { family: 'devstral-small', pattern: /devstral-(?:small|medium)-25(?:05|07)/, tokens: 128_000, source: PI_AI },
  { family: 'mistral-256k', pattern: /devstral|codestral|mistral-large-(?:2512|latest|3)/, tokens: 256_000, source: `docs.mistral.ai/getting-started/models; ${PI_AI}` },
  { family: 'mistral', pattern: /mistral|magistral|ministral|pixtral/, tokens: 128_000, source: 'docs.mistral.ai/getting-started/models' },
  { family: 'mimo-1m', pattern: /mimo-v2\.5|mimo-v2-pro/, tokens: 1_000_000, source: PI_AI },
  { family: 'mimo', pattern: /mimo/, tokens: 262_144, source: PI_AI },
];

/**
 * GitHub Copilot serves the same models with windows of its own, mostly smaller (pi-ai 0.73.1's
 * `github-copilot` models): a Copilot CLI session is judged on these.
 */
const COPILOT_FAMILIES: readonly Family[] = [
  ['claude-opus-4-6', /claude-opus-4[-.]6/, 1_000_000],
  ['claude-sonnet-4-6', /claude-sonnet-4[-.]6/, 1_000_000],
  ['claude-opus-4-5', /claude-opus-4[-.]5/, 160_000],
  ['claude-sonnet-4', /claude-sonnet-4(?![-.]\d)/, 216_000],
  ['claude', /claude/, 144_000],
  ['gpt-5-codex', /gpt-5[\w.]*-codex/, 400_000],
  ['gpt-5.4+', /gpt-5\.[4-9]/, 400_000],
  ['gpt-5.x', /gpt-5-mini|gpt-5\.[1-3]/, 264_000],
  ['gpt', /gpt|gemini|grok/, 128_000],
].map(([family, pattern, tokens]) => ({ family: family as string, pattern: pattern as RegExp, tokens: tokens as number, source: `${PI_AI} (github-copilot)` }));

/** The window of a model the table does not know, per provider; the Copilot default is its most common. */
const DEFAULTS: Record<ProviderId | Gateway, { tokens: number; source: string }> = {
  anthropic: { tokens: 200_000, source: `${CLAUDE_DOCS}: the window of every Claude model without opting in to more` },
  bedrock: { tokens: 200_000, source: `${CLAUDE_DOCS}: the window of every Claude model without opting in to more` },
  vertex: { tokens: 200_000, source: `${CLAUDE_DOCS}: the window of every Claude model without opting in to more` },
  'openai-responses': { tokens: 272_000, source: GPT5_INPUT },
  'openai-chat': { tokens: 128_000, source: `${QWEN_CODE} (its fallback for OpenAI-compatible models)` },
  gemini: { tokens: 1_048_576, source: 'ai.google.dev/gemini-api/docs/models' },
  mistral: { tokens: 128_000, source: 'docs.mistral.ai/getting-started/models' },
  copilot: { tokens: 128_000, source: `${PI_AI} (github-copilot: most models)` },
  dashscope: { tokens: 262_144, source: QWEN_CODE },
};

/** The model as the families are written: lower case, without a router's `vendor/` prefix or a `:free`-style tag. */
function normalise(model: string): string {
  const bare = model.trim().toLowerCase();
  return bare.slice(bare.lastIndexOf('/') + 1).replace(/:(?:free|beta|thinking|latest|online|nitro)$/, '');
}

/**
 * The input-token window of `model` sent to `provider` (through `gateway`, when the agent's
 * requests pass one: Copilot's windows differ). An unknown or absent model gets the provider's
 * default, marked `guessed`; undefined when neither model nor provider is known.
 */
export function contextWindow(model: string | undefined, provider: ProviderId | undefined, gateway?: Gateway): ContextWindow | undefined {
  const name = model === undefined ? undefined : normalise(model);
  const tables = gateway === 'copilot' ? [COPILOT_FAMILIES, FAMILIES] : [FAMILIES];
  if (name !== undefined && name !== '') {
    for (const table of tables) {
      const found = table.find((family) => family.pattern.test(name));
      if (found !== undefined) {
        const window: ContextWindow = { tokens: found.tokens, family: found.family, source: found.source };
        if (found.larger !== undefined) window.larger = found.larger;
        return window;
      }
    }
  }
  const fallback = gateway ?? provider;
  if (fallback === undefined) return undefined;
  const { tokens, source } = DEFAULTS[fallback];
  return { tokens, family: 'default', source, guessed: true };
}
