import type { TranscriptFormat } from '../format.js';
import { isObject, withoutTimestamp } from '../json.js';
import { CopilotCliDecoder, type CopilotCliDecoderState } from './decode.js';
import { copilotCliEncoder } from './encode.js';
import { isEventType } from './events.js';
import { copilotCliHeals } from './heals.js';
import { readText } from './text.js';

const TURN_START = /^\{"type":"(user\.message|assistant\.turn_start)"/;

/** GitHub Copilot CLI sessions (`$COPILOT_HOME/session-state/<session>/events.jsonl`, `~/.copilot` by default). */
export const copilotCliFormat: TranscriptFormat = {
  name: 'copilot-cli',
  semantics: {
    // Events are named by position (the client replays the file in order), so no two share an id.
    duplicateIds: 'last',
    resultsBesidePath: false,
    // The first event must be session.start, or the client loads nothing (tried).
    header: true,
    headerLoss: 'Copilot CLI refuses the file ("Session file is corrupted or incompatible")',
    // The runtime moves results next to their calls itself ("Moved N non-adjacent tool result messages").
    resultOrder: false,
    // Completions carry only the call id.
    resultNames: false,
    blankTextRejected: false,
    blocksAt: '/toolRequests',
    // Every request goes through GitHub's CAPI, whose 5 MB body limit and windows come first.
    gateway: 'copilot',
  },
  detect(value) {
    return isObject(value) && isEventType(value.type) && isObject(value.data) && typeof value.id === 'string' && typeof value.timestamp === 'string';
  },
  // An event is stamped and has an id; what its data holds (tool requests, results, errors) has neither with a dotted type.
  isRecord(value) {
    return this.detect(value) || (isObject(value) && isEventType(value.type) && (typeof value.id === 'string' || typeof value.timestamp === 'string'));
  },
  resembles: (value) => isObject(value) && isEventType(value.type) && isObject(value.data),
  livesAt: [/(^|\/)session-state\/[^/]+\/events\.jsonl$/],
  // Between turns no call is open: the state after the head (see CopilotCliDecoderState).
  startsAfresh: (head) => TURN_START.test(head),
  createDecoder: (state) => new CopilotCliDecoder(state as CopilotCliDecoderState | undefined),
  encoder: copilotCliEncoder,
  nothingToCanonicalize: 'a Copilot CLI session has one event shape for each tool call and its result',
  readText,
  copyKey: withoutTimestamp,
  heals: copilotCliHeals,
  // Events are replayed in file order, whatever they name: a torn line has no links to recover.
  recoverLinks: () => undefined,
};
