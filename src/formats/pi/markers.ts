/** Texts and values that OpenClaw and pi write into transcripts; recognised, never invented. */

/** Text of synthetic results written by OpenClaw's repair code (prefix changed with each rename). */
export const SYNTHETIC_RESULT_TEXTS = new Set([
  '[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair.',
  '[moltbot] missing tool result in session history; inserted synthetic error result for transcript repair.',
  '[clawdbot] missing tool result in session history; inserted synthetic error result for transcript repair.',
  'No result provided',
]);

/** Providers under which OpenClaw writes transcript-only assistant entries. */
export const TRANSCRIPT_ONLY_PROVIDERS = new Set(['openclaw', 'moltbot', 'clawdbot']);
export const TRANSCRIPT_ONLY_MODELS = new Set(['delivery-mirror', 'gateway-injected']);

/** Entry types pi writes besides the header; anything else is passed through as unknown. */
export const PI_ENTRY_TYPES = new Set([
  'message',
  'model_change',
  'thinking_level_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
]);

