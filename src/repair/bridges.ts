import type { Analysis } from '../model/analysis.js';
import type { NewLine } from '../model/edits.js';
import { ASSISTANT, TOOL_RESULT } from '../model/entry-bits.js';
import { isFailed, type Entry } from '../model/entry.js';
import { enforcedTerm } from '../providers/choose.js';
import type { EntryMarks } from './entry-marks.js';
import type { PlanBuilder } from './plan-builder.js';
import type { Node } from './replay.js';

type Turn = 'user' | 'assistant' | 'calls' | 'tool';
type Bridge = Extract<NewLine, { kind: 'bridge' }>;

/** Whether the chosen provider's turn order can need a bridge at all. */
export function bridgesWanted(analysis: Analysis): boolean {
  return enforcedTerm(analysis, 'user-after-tool-result') !== undefined || enforcedTerm(analysis, 'call-turn-order') !== undefined;
}

/**
 * Bridges the chosen provider's turn order needs, in the repaired sequence: an assistant message
 * between tool results and a user message (Mistral, user-after-tool-result), a user message before
 * a turn of calls that opens the history or follows an assistant message (Gemini, call-turn-order).
 * A bridge is written after the last line written where it goes, so it keeps its place among the
 * results the repair moves or adds there. One that opens the history has no such line: it is
 * written right before the call turn's first line, after whatever comes before it in the file (a
 * session header, bookkeeping lines, nothing at all in a request's list), and the turn hangs on it.
 */
export function bridgeTurns(analysis: Analysis, sequence: Node[], moved: EntryMarks, builder: PlanBuilder): Node[] {
  const afterResults = enforcedTerm(analysis, 'user-after-tool-result') !== undefined;
  const beforeCalls = enforcedTerm(analysis, 'call-turn-order') !== undefined;
  if (!afterResults && !beforeCalls) return sequence;
  const store = analysis.entries;
  const out: Node[] = [];
  let previous: Turn | undefined;
  let previousGroup = -1;
  let anchor: Entry | undefined;
  for (let n = 0; n < sequence.length; n++) {
    const node = sequence[n]!;
    let turn = turnOf(node, store);
    // Lines of one message written apart (Claude Code, Codex) are one turn.
    const group = 'entry' in node ? store.group(node.entry.index) : -1;
    const sameMessage = group !== -1 && group === previousGroup;
    if (turn !== undefined && !sameMessage) {
      if (turn === 'assistant' && group !== -1) turn = messageTurn(sequence, n, group, store);
      const role: 'user' | 'assistant' | undefined =
        afterResults && previous === 'tool' && turn === 'user' ? 'assistant' : beforeCalls && turn === 'calls' && previous !== 'user' && previous !== 'tool' ? 'user' : undefined;
      if (role !== undefined && anchor !== undefined) {
        out.push({ added: bridge(role, anchor.line, anchor.line, builder), after: anchor });
      } else if (role !== undefined && 'entry' in node) {
        out.push({ added: bridge(role, node.entry.line - 1, node.entry.line, builder), before: node.entry });
      }
    }
    out.push(node);
    if ('entry' in node && !moved.has(node.entry)) anchor = node.entry;
    if (turn !== undefined && !sameMessage) {
      previous = turn;
      previousGroup = group;
    }
  }
  return out;
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
function messageTurn(sequence: readonly Node[], from: number, group: number, store: Analysis['entries']): Turn {
  for (let n = from + 1; n < sequence.length; n++) {
    const node = sequence[n]!;
    const turn = turnOf(node, store);
    if (turn === undefined) continue;
    if (!('entry' in node) || store.group(node.entry.index) !== group) break;
    if (turn === 'calls') return 'calls';
  }
  return 'assistant';
}

/** What a node is to the provider; undefined when it is not sent (failed and empty turns, bookkeeping). */
function turnOf(node: Node, store: Analysis['entries']): Turn | undefined {
  if ('added' in node) return node.added.kind === 'bridge' ? node.added.role : 'tool';
  const entry = node.entry;
  if (!entry.inContext) return undefined;
  const role = store.roleCode(entry.index);
  if (role === TOOL_RESULT) return 'tool';
  if (role !== ASSISTANT) return 'user';
  if (isFailed(entry) || entry.emptyContent) return undefined;
  return store.hasCalls(entry.index) ? 'calls' : 'assistant';
}
