import type { Analysis } from '../model/analysis.js';
import type { NewLine } from '../model/edits.js';
import { ASSISTANT, TOOL_RESULT } from '../model/entry-bits.js';
import { isFailed, type Entry } from '../model/entry.js';
import { enforcedTerm } from '../providers/choose.js';
import type { EntryMarks } from './entry-marks.js';
import type { PlanBuilder } from './plan-builder.js';
import type { Node } from './replay.js';

type Turn = 'user' | 'assistant' | 'calls' | 'tool';

/** Whether the chosen provider's turn order can need a bridge at all. */
export function bridgesWanted(analysis: Analysis): boolean {
  return enforcedTerm(analysis, 'user-after-tool-result') !== undefined || enforcedTerm(analysis, 'call-turn-order') !== undefined;
}

/**
 * Bridges the chosen provider's turn order needs, in the repaired sequence: an assistant message
 * between tool results and a user message (Mistral, user-after-tool-result), a user message before
 * a turn of calls that follows an assistant message (Gemini, call-turn-order). A bridge is written
 * after the last line written where it goes, so it keeps its place among the results the repair
 * moves or adds there. A history that opens with a call is left as it is: nothing comes before it to hang a bridge on.
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
  for (const node of sequence) {
    const turn = turnOf(node, store);
    // Lines of one message written apart (Claude Code, Codex) are one turn.
    const group = 'entry' in node ? store.group(node.entry.index) : -1;
    const sameMessage = group !== -1 && group === previousGroup;
    if (turn !== undefined && !sameMessage && anchor !== undefined) {
      const role: 'user' | 'assistant' | undefined = afterResults && previous === 'tool' && turn === 'user' ? 'assistant' : beforeCalls && turn === 'calls' && (previous === 'assistant' || previous === 'calls') ? 'user' : undefined;
      if (role !== undefined) {
        const added: Extract<NewLine, { kind: 'bridge' }> = { kind: 'bridge', role, timestampFrom: anchor.line };
        builder.place(anchor.line, { kind: 'new', value: added });
        builder.count('addedBridges');
        out.push({ added, after: anchor });
      }
    }
    out.push(node);
    if ('entry' in node && !moved.has(node.entry)) anchor = node.entry;
    if (turn !== undefined) {
      previous = turn;
      previousGroup = group;
    }
  }
  return out;
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
