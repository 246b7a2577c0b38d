import type { TranscriptFormat } from '../format.js';
import { isObject, stringMember, withoutTimestamp } from '../json.js';
import { CodexDecoder, type CodexDecoderState } from './decode.js';
import { codexEncoder } from './encode.js';
import { ROLLOUT_TYPES } from './items.js';
import { codexHeals } from './heals.js';
import { readText } from './text.js';
import { codexSlim } from './slim.js';

/** OpenAI Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`, `archived_sessions/`). */
export const codexFormat: TranscriptFormat = {
  name: 'codex',
  semantics: {
    // Lines are named by position, so no two share an id.
    duplicateIds: 'last',
    // A rollout is linear: there is no line beside the path to replay.
    resultsBesidePath: false,
    // Codex resumes only a rollout whose first item is a session_meta it can read.
    header: true,
    // The Responses API matches outputs to calls by call_id; Codex records parallel outputs as they finish.
    resultOrder: false,
    // Tool outputs carry only the call id: there is no tool name to fill.
    resultNames: false,
    // Codex talks to the Responses API, which takes empty text; nothing is rejected for it.
    blankTextRejected: false,
    api: 'responses',
    provider: 'openai-responses',
    headerLoss: 'Codex will not resume it ("rollout at … does not start with session metadata")',
  },
  detect(value) {
    return isObject(value) && typeof value.timestamp === 'string' && typeof value.type === 'string' && ROLLOUT_TYPES.has(value.type) && isObject(value.payload);
  },
  // Every rollout line is stamped (the oldest header too); the items inside payloads are not.
  isRecord: (value) => isObject(value) && typeof value.timestamp === 'string',
  // A rollout line that lost its time is still a rollout line.
  resembles: (value) => isObject(value) && typeof value.type === 'string' && ROLLOUT_TYPES.has(value.type) && isObject(value.payload),
  livesAt: [/(^|\/)\.codex\/(sessions|archived_sessions)\/(.+\/)?rollout-[^/]*\.jsonl$/],
  // The session_meta header names the folder the session was started in.
  sessionHead: (head) => ({ cwd: stringMember(head, 'cwd') }),
  createDecoder: (state) => new CodexDecoder(state as CodexDecoderState | undefined),
  encoder: codexEncoder,
  slim: codexSlim,
  // One item shape per call and per output: there is no legacy or foreign form to rewrite.
  nothingToCanonicalize: 'a rollout has one item shape for each tool call and output',
  readText,
  copyKey: withoutTimestamp,
  heals: codexHeals,
  // No line names another: a torn line has no links to recover.
  recoverLinks: () => undefined,
};
