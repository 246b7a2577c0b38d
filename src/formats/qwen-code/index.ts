import type { TranscriptFormat } from '../format.js';
import { isObject, withoutTimestamp } from '../json.js';
import { QwenDecoder, type QwenDecoderState } from './decode.js';
import { qwenEncoder } from './encode.js';
import { qwenHeals } from './heals.js';
import { readText } from './text.js';
import { qwenSlim } from './slim.js';
import { recoverUuidLinks } from '../claude-code/links.js';

const RECORD_TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);

/** A record's payload in Qwen Code's shape: a Gemini `Content` message, or a system record's `systemPayload`. */
function hasQwenPayload(value: Record<string, unknown>): boolean {
  return (isObject(value.message) && Array.isArray(value.message.parts)) || 'systemPayload' in value;
}

/**
 * Qwen Code sessions (`<runtime dir>/projects/<sanitised cwd>/chats/<session id>.jsonl`; the
 * runtime dir is `$QWEN_RUNTIME_DIR`, else `$QWEN_HOME`, else `~/.qwen`).
 */
export const qwenCodeFormat: TranscriptFormat = {
  name: 'qwen-code',
  semantics: {
    // The client walks back through the first record of each uuid (later ones are fragments of it).
    duplicateIds: 'first',
    // One chain: each result record follows the one before it.
    resultsBesidePath: false,
    header: false,
    // An OpenAI-compatible endpoint (the default) matches results to calls by id.
    resultOrder: false,
    // Each functionResponse names its function, as Gemini wants.
    resultNames: true,
    blankTextRejected: false,
    // Its messages are Gemini Contents: signatures sit on parts, blocks under `parts`.
    partsSigned: true,
    blocksAt: '/parts',
    // Its default endpoint (Qwen OAuth) is DashScope, whose 20,000,000-character string limit comes first.
    gateway: 'dashscope',
  },
  detect(value) {
    return isObject(value) && typeof value.type === 'string' && RECORD_TYPES.has(value.type) && typeof value.uuid === 'string' && 'parentUuid' in value && (value.type === 'tool_result' || hasQwenPayload(value));
  },
  // Every record carries its session and uuid; the Contents and parts inside it have neither.
  isRecord(value) {
    return isObject(value) && typeof value.type === 'string' && (typeof value.uuid === 'string' || typeof value.sessionId === 'string');
  },
  // A record that lost its links is still a Qwen Code record when its message is a Content.
  resembles(value) {
    return isObject(value) && typeof value.type === 'string' && RECORD_TYPES.has(value.type) && hasQwenPayload(value);
  },
  livesAt: [/(^|\/)\.qwen\/projects\/[^/]+\/chats\/[^/]+\.jsonl$/],
  createDecoder: (state) => new QwenDecoder(state as QwenDecoderState | undefined),
  encoder: qwenEncoder,
  slim: qwenSlim,
  nothingToCanonicalize: 'a Qwen Code session has one part shape for each tool call and response',
  readText,
  copyKey: withoutTimestamp,
  heals: qwenHeals,
  recoverLinks: recoverUuidLinks,
};
