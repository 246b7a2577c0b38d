import type { TranscriptFormat } from '../format.js';
import { isObject, withoutTimestamp } from '../json.js';
import { PiDecoder, type PiDecoderState } from './decode.js';
import { piEncoder } from './encode.js';
import { readText } from './text.js';
import { PI_ENTRY_TYPES } from './markers.js';
import { piSlim } from './slim.js';
import { messageShape } from './message-shape.js';

/** pi coding agent and OpenClaw (clawdbot, moltbot) session files, versions 1 to 3. */
export const piFormat: TranscriptFormat = {
  name: 'pi',
  detect(value) {
    if (!isObject(value) || typeof value.type !== 'string') return false;
    if (value.type === 'session') return true;
    if (value.type === 'message') return isObject(value.message) && typeof value.message.role === 'string';
    return PI_ENTRY_TYPES.has(value.type) && typeof value.timestamp === 'string';
  },
  // Every entry is stamped when it is written; content blocks and messages inside one are not.
  isRecord(value) {
    return this.detect(value) || (isObject(value) && typeof value.type === 'string' && typeof value.timestamp === 'string');
  },
  livesAt: [/(^|\/)\.openclaw\/agents\/[^/]+\/sessions\/[^/]+$/, /(^|\/)\.pi\/agent\/sessions\/.+$/],
  createDecoder: (state) => new PiDecoder(state as PiDecoderState | undefined),
  encoder: piEncoder,
  slim: piSlim,
  readText,
  messageShape,
  copyKey: withoutTimestamp,
  recoverLinks(text) {
    // Writers put id and parentId first, so even a torn line usually still names both.
    const head = text.slice(0, 512);
    const id = /"id"\s*:\s*"([^"\\]+)"/.exec(head)?.[1];
    const parent = /"parentId"\s*:\s*(null|"([^"\\]+)")/.exec(head);
    if (id === undefined || parent === null) return undefined;
    return { id, parentId: parent[2] ?? null };
  },
};
