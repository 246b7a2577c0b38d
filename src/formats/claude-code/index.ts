import type { TranscriptFormat } from '../format.js';
import { isObject, withoutTimestamp } from '../json.js';
import { ClaudeCodeDecoder } from './decode.js';
import { claudeCodeEncoder } from './encode.js';
import { claudeCodeHeals } from './heals.js';
import { readText } from './text.js';
import { recoverUuidLinks } from './links.js';
import { claudeCodeSlim } from './slim.js';

/** Line types only Claude Code writes, recognisable even without a uuid. */
const OWN_TYPES = new Set(['summary', 'file-history-snapshot', 'queue-operation', 'progress', 'attachment', 'custom-title', 'ai-title', 'last-prompt']);

/**
 * Claude Code session files (`~/.claude/projects/<cwd>/<session>.jsonl`, sub-agent files too).
 */
export const claudeCodeFormat: TranscriptFormat = {
  name: 'claude-code',
  // A resumed session copies earlier lines with the same uuids: the oldest copy counts. Parallel
  // results hang off their own call line, beside the path the last line leads back through, in
  // the order they finished, which Anthropic accepts. It talks only to Anthropic, which rejects blank text blocks.
  // A line whose parentUuid names no line is bridged to the line before it when Claude Code
  // resumes, and a user turn nobody answered gets its "No response requested." turn.
  semantics: { duplicateIds: 'first', resultsBesidePath: true, header: false, resultOrder: false, resultNames: false, bridgesUnknownParents: true, answersTrailingUser: true, resumesPastCopies: true, blankTextRejected: true, provider: 'anthropic' },
  detect(value) {
    if (!isObject(value) || typeof value.type !== 'string') return false;
    if (OWN_TYPES.has(value.type)) return true;
    return (value.type === 'user' || value.type === 'assistant' || value.type === 'system') && typeof value.uuid === 'string' && 'parentUuid' in value && !isQwenLine(value);
  },
  // Lines of its own types, and lines with the session, their uuid or the time; the API message and blocks inside a line have none of them.
  isRecord(value) {
    return this.detect(value) || (isObject(value) && typeof value.type === 'string' && ['uuid', 'sessionId', 'timestamp'].some((key) => typeof value[key] === 'string'));
  },
  // A message line another tool's file could hold too, with or without its links.
  resembles(value) {
    return isObject(value) && (value.type === 'user' || value.type === 'assistant') && isObject(value.message) && typeof value.message.role === 'string' && !isQwenLine(value);
  },
  livesAt: [/(^|\/)\.claude\/projects\/.+\.jsonl$/],
  createDecoder: () => new ClaudeCodeDecoder(),
  encoder: claudeCodeEncoder,
  slim: claudeCodeSlim,
  readText,
  copyKey: withoutTimestamp,
  heals: claudeCodeHeals,
  recoverLinks: recoverUuidLinks,
  appending: {
    sideChainOf: (value) => (isObject(value) && value.isSidechain === true ? (typeof value.agentId === 'string' ? value.agentId : '') : undefined),
    responseGroups: true,
  },
};

/**
 * Qwen Code writes Claude Code's line envelope (uuid, parentUuid, type) around a Gemini message
 * (`{role, parts}`) or a `systemPayload`; its files are not Claude Code's, and what repair would
 * write into them is not what Qwen Code reads.
 */
function isQwenLine(value: Record<string, unknown>): boolean {
  return (isObject(value.message) && Array.isArray(value.message.parts)) || 'systemPayload' in value;
}
