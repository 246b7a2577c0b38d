import type { TranscriptFormat } from '../format.js';
import { isObject } from './blocks.js';
import { PiDecoder } from './decode.js';
import { PI_ENTRY_TYPES } from './markers.js';

/** pi coding agent and OpenClaw (clawdbot, moltbot) session files, versions 1 to 3. */
export const piFormat: TranscriptFormat = {
  name: 'pi',
  detect(value) {
    if (!isObject(value) || typeof value.type !== 'string') return false;
    if (value.type === 'session') return true;
    if (value.type === 'message') return isObject(value.message) && typeof value.message.role === 'string';
    return PI_ENTRY_TYPES.has(value.type) && typeof value.timestamp === 'string';
  },
  createDecoder: () => new PiDecoder(),
};
