import type { TranscriptFormat } from '../../../../src/formats/format.js';
import { isObject } from '../../../../src/formats/json.js';
import { piFormat } from '../../../../src/formats/pi/index.js';

/**
 * The format folder of a stand-in agent: pi's lines under a header of its own
 * (`{"type": "stand-in-session", …}`), so that no shipped format takes its files. Everything past
 * the header is pi's decoder's, encoder's and text reader's: a real format has its own.
 */
const HEADER = 'stand-in-session';

const isHeader = (value: unknown): boolean => isObject(value) && value.type === HEADER;

export const standInFormat: TranscriptFormat = {
  name: 'stand-in',
  detect: isHeader,
  isRecord: (value) => isHeader(value) || piFormat.isRecord(value),
  createDecoder(state) {
    const pi = piFormat.createDecoder(state);
    return {
      decode: (value, line, index, latin1) => pi.decode(isHeader(value) ? { ...(value as object), type: 'session' } : value, line, index, latin1),
      state: () => pi.state(),
    };
  },
  // The session's whole id is in the header only (its file is named by time): the agent module asks for it here.
  sessionHead(head) {
    const first = head.slice(0, head.indexOf('\n') === -1 ? head.length : head.indexOf('\n'));
    try {
      const value = JSON.parse(first) as { type?: unknown; id?: unknown; cwd?: unknown };
      if (value.type !== HEADER) return {};
      return { ...(typeof value.id === 'string' ? { id: value.id } : {}), ...(typeof value.cwd === 'string' ? { cwd: value.cwd } : {}) };
    } catch {
      return {};
    }
  },
  encoder: piFormat.encoder,
  readText: piFormat.readText,
  copyKey: piFormat.copyKey,
  recoverLinks: piFormat.recoverLinks,
};
