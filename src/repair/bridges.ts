import type { Analysis } from '../model/analysis.js';
import type { NewLine } from '../model/edits.js';
import { ASSISTANT, TOOL_RESULT } from '../model/entry-bits.js';
import { isFailed, type Entry } from '../model/entry.js';
import { enforcedTerm } from '../providers/choose.js';
import { instructionsApart, OTHER } from '../providers/instructions.js';
import type { EntryMarks } from './entry-marks.js';
import type { PlanBuilder } from './plan-builder.js';
import type { Node } from './path-node.js';

/** 'system': a request line's system or developer message, which Gemini and Bedrock take out of the turns (instructionsApart). */
type Turn = 'user' | 'assistant' | 'calls' | 'tool' | 'system';
type Bridge = Extract<NewLine, { kind: 'bridge' }>;

/** Whether the chosen provider's turn order can need a bridge at all. */
export function bridgesWanted(analysis: Analysis): boolean {
  return (
    enforcedTerm(analysis, 'user-after-tool-result') !== undefined ||
    enforcedTerm(analysis, 'call-turn-order') !== undefined ||
    enforcedTerm(analysis, 'first-message-user') !== undefined
  );
}

/**
 * Bridges the chosen provider's turn order needs, in the repaired sequence: an assistant message
 * between tool results and a user message (Mistral, user-after-tool-result), a user message before
 * a turn of calls that opens the history or follows an assistant message (Gemini, call-turn-order),
 * and before an assistant message that opens it (Bedrock, first-message-user). Only what is sent
 * counts, as for the rules: after a compaction, its summary (a user message) and what follows its
 * kept point; history before that is left as it is. A bridge is written after the last line
 * written where it goes, so it keeps its place among the results the repair moves or adds there.
 * One that opens the history has no such line: it is written right before the turn's first line,
 * after whatever comes before it in the file (a session header, bookkeeping lines, nothing at all
 * in a request's list), and the turn hangs on it.
 */
export function bridgeTurns(analysis: Analysis, sequence: Node[], moved: EntryMarks, builder: PlanBuilder): Node[] {
  const afterResults = enforcedTerm(analysis, 'user-after-tool-result') !== undefined;
  const beforeCalls = enforcedTerm(analysis, 'call-turn-order') !== undefined;
  const userFirst = enforcedTerm(analysis, 'first-message-user') !== undefined;
  if (!afterResults && !beforeCalls && !userFirst) return sequence;
  const store = analysis.entries;
  const { sent, summary } = sentEntries(analysis);
  const apart = instructionsApart(analysis);
  const out: Node[] = [];
  // The last turn sent, and the last one not counting system messages (Mistral takes them for user content).
  let previous: Turn | undefined = summary === -1 ? undefined : 'user';
  let previousTurn: Turn | undefined = previous;
  let previousGroup = -1;
  let anchor: Entry | undefined;
  for (let n = 0; n < sequence.length; n++) {
    const node = sequence[n]!;
    let turn = turnOf(node, store, sent, apart);
    // The summary was counted first, where it is sent.
    if ('entry' in node && node.entry.index === summary) turn = undefined;
    // Lines of one message written apart (Claude Code, Codex) are one turn.
    const group = 'entry' in node ? store.group(node.entry.index) : -1;
    const sameMessage = group !== -1 && group === previousGroup;
    if (turn !== undefined && !sameMessage) {
      if (turn === 'assistant' && group !== -1) turn = messageTurn(sequence, n, group, store, sent, apart);
      const role: 'user' | 'assistant' | undefined =
        afterResults && previous === 'tool' && (turn === 'user' || turn === 'system')
          ? 'assistant'
          : (beforeCalls && turn === 'calls' && previousTurn !== 'user' && previousTurn !== 'tool') || (userFirst && previousTurn === undefined && (turn === 'assistant' || turn === 'calls'))
            ? 'user'
            : undefined;
      if (role !== undefined && anchor !== undefined) {
        out.push({ added: bridge(role, anchor.line, anchor.line, builder), after: anchor });
      } else if (role !== undefined && 'entry' in node) {
        out.push({ added: bridge(role, node.entry.line - 1, node.entry.line, builder), before: node.entry });
      }
    }
    out.push(node);
    if ('entry' in node && !moved.has(node.entry)) anchor = node.entry;
    if (turn !== undefined && !sameMessage) {
      previous = turn === 'system' ? 'user' : turn;
      if (turn !== 'system') previousTurn = turn;
      previousGroup = group;
    }
  }
  return out;
}

/**
 * The entries sent, and a compaction whose summary is sent first (-1 for none): it stands later
 * on the path than the kept entries sent after it, so it is counted before the walk.
 */
function sentEntries(analysis: Analysis): { sent: Uint8Array; summary: number } {
  const { indices } = analysis.replay.context;
  const sent = new Uint8Array(analysis.entries.length);
  for (let at = 0; at < indices.length; at++) sent[indices[at]!] = 1;
  const first = indices.length > 0 ? indices[0]! : -1;
  return { sent, summary: first !== -1 && analysis.entries.kind(first) === 'compaction' ? first : -1 };
}

/** A bridge written after `line` (0: before the first), with the time of line `timestampFrom`. */
function bridge(role: Bridge['role'], line: number, timestampFrom: number, builder: PlanBuilder): Bridge {
  const added: Bridge = { kind: 'bridge', role, timestampFrom };
  builder.place(line, { kind: 'new', value: added });
  builder.count('addedBridges');
  return added;
}

/**
 * An assistant message written over several lines is a turn of calls when any of its lines makes
 * one: its first line may hold only reasoning or text (Claude Code's thinking line, Codex's
 * reasoning item). Lines not sent in between (Codex's events) do not end it.
 */
function messageTurn(sequence: readonly Node[], from: number, group: number, store: Analysis['entries'], sent: Uint8Array, apart: boolean): Turn {
  for (let n = from + 1; n < sequence.length; n++) {
    const node = sequence[n]!;
    const turn = turnOf(node, store, sent, apart);
    if (turn === undefined) continue;
    if (!('entry' in node) || store.group(node.entry.index) !== group) break;
    if (turn === 'calls') return 'calls';
  }
  return 'assistant';
}

/** What a node is to the provider; undefined when it is not sent (failed and empty turns, bookkeeping, history before a compaction's kept point). */
function turnOf(node: Node, store: Analysis['entries'], sent: Uint8Array, apart: boolean): Turn | undefined {
  // An added result is sent where the call it answers is.
  if ('added' in node) return node.added.kind === 'bridge' ? node.added.role : 'after' in node && sent[node.after.index] === 1 ? 'tool' : undefined;
  const entry = node.entry;
  if (!entry.inContext || sent[entry.index] !== 1) return undefined;
  const role = store.roleCode(entry.index);
  if (role === TOOL_RESULT) return 'tool';
  if (apart && role === OTHER) return 'system';
  if (role !== ASSISTANT) return 'user';
  if (isFailed(entry) || entry.emptyContent) return undefined;
  return store.hasCalls(entry.index) ? 'calls' : 'assistant';
}
