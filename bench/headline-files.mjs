// The six real-shaped 128 MiB headline files of the bench (pi, Claude Code, Codex, Gemini CLI,
// Copilot CLI, Qwen Code), made and cached on first use, for the scripts that measure them apart
// from the bench (parse-floor.mjs, ceiling.mjs).
import { ensureTranscript } from './generate.mjs';
import { ensureClaudeCode } from './to-claude-code.mjs';
import { CODEX_GROWTH, ensureCodex } from './to-codex.mjs';
import { CLAUDE_CODE_GROWTH } from './projects.mjs';
import { GEMINI_GROWTH, ensureGemini } from './to-gemini.mjs';
import { ensureQwenCode, QWEN_GROWTH } from './to-qwen-code.mjs';
import { COPILOT_GROWTH, ensureCopilot } from './to-copilot.mjs';

const MiB = 2 ** 20;

/** Their paths, in that order. */
export async function headlineFiles() {
  const bytes = 128 * MiB;
  const base = (growth, seed) => ensureTranscript(Math.round(bytes / growth), { shape: 'real', seed });
  return [
    (await ensureTranscript(bytes, { shape: 'real' })).file,
    (await ensureClaudeCode((await base(CLAUDE_CODE_GROWTH, 2)).file, { real: true })).file,
    (await ensureCodex((await base(CODEX_GROWTH, 3)).file)).file,
    (await ensureGemini((await base(GEMINI_GROWTH, 4)).file)).file,
    (await ensureCopilot((await base(COPILOT_GROWTH, 5)).file)).file,
    (await ensureQwenCode((await base(QWEN_GROWTH, 4)).file)).file,
  ];
}
