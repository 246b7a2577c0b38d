import type { TranscriptFormat } from '../format.js';
import { isObject, stringMember, withoutTimestamp } from '../json.js';
import { GeminiCliDecoder, type GeminiCliDecoderState } from './decode.js';
import { settleReplay } from './replay.js';
import { geminiCliEncoder } from './encode.js';
import { geminiCliHeals } from './heals.js';
import { MESSAGE_TYPES, recordKind } from './records.js';
import { readText } from './text.js';

/**
 * Gemini CLI sessions (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, sub-agents' in
 * `chats/<parent>/`), legacy whole-file `session-*.json` records and `checkpoint-<tag>.json` files.
 */
export const geminiCliFormat: TranscriptFormat = {
  name: 'gemini-cli',
  semantics: {
    // The client upserts messages by id: the last copy wins (the decoder settles that itself).
    duplicateIds: 'last',
    resultsBesidePath: false,
    // The first metadata line is written on every start; a file without one is read as a legacy record.
    header: false,
    // Responses pair with calls by id, else by name: their order does not matter to Gemini.
    resultOrder: false,
    resultNames: true,
    blankTextRejected: true,
    provider: 'gemini',
    partsSigned: true,
  },
  detect(value) {
    const kind = recordKind(value);
    if (kind === 'checkpoint') return Array.isArray(value) ? value.length > 0 : true;
    if (!isObject(value)) return false;
    switch (kind) {
      case 'message':
        return typeof value.timestamp === 'string' && typeof value.type === 'string' && MESSAGE_TYPES.has(value.type) && 'content' in value;
      case 'rewind':
        return Object.keys(value).length === 1;
      case 'patch':
        return Object.keys(value).length === 1;
      case 'metadata':
        return typeof value.startTime === 'string';
      default:
        return false;
    }
  },
  // Tool calls and parts inside a message hold an `id` too, but never a `type` with a `timestamp`.
  isRecord(value) {
    return this.detect(value) || (isObject(value) && typeof value.id === 'string' && typeof value.timestamp === 'string' && typeof value.type === 'string');
  },
  livesAt: [/(^|\/)\.gemini\/tmp\/[^/]+\/chats\/.+\.jsonl?$/, /(^|\/)\.gemini\/tmp\/[^/]+\/checkpoint-[^/]*\.json$/],
  // Older builds wrote a session as one JSON record (`session-*.json`), still read; `/chat save` writes `checkpoint-<tag>.json`.
  readsWholeDocument: (path) => /(^|\/)(session|checkpoint)-[^/]*\.json$/.test(path),
  // The first record (or a legacy document's top) names the whole session id.
  sessionHead: (head) => ({ id: stringMember(head, 'sessionId') }),
  createDecoder: (state) => new GeminiCliDecoder(state as GeminiCliDecoderState | undefined),
  settle: settleReplay,
  encoder: geminiCliEncoder,
  heals: geminiCliHeals,
  nothingToCanonicalize: 'a Gemini CLI session has one shape for each tool call and its result',
  readText,
  copyKey: withoutTimestamp,
  // No line names another: order is the file's, with upserts by id.
  recoverLinks: () => undefined,
};
