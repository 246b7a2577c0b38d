import type { KeptHistoryProblem } from '../../model/entry.js';
import { isObject, nonEmptyString, type Json } from '../json.js';
import { uuidFrom } from './session-meta.js';
import { ABORTED_OUTPUT, CALL_ITEMS, OUTPUT_ITEMS, SERVER_EXECUTION } from './items.js';

/**
 * A `compacted` record's `replacement_history`: the item list Codex resumes with instead of
 * everything before the record. It is sent as it stands, so its calls and outputs must pair
 * within it, by `call_id`, the way the Responses API pairs any input list.
 */
export const REPLACEMENT_HISTORY = '/payload/replacement_history';

type Role = 'call' | 'output' | 'other';

function roleOf(item: unknown): { role: Role; id?: string } {
  if (!isObject(item) || typeof item.type !== 'string' || item.execution === SERVER_EXECUTION) return { role: 'other' };
  if (CALL_ITEMS.has(item.type)) return { role: 'call', id: nonEmptyString(item.call_id) };
  if (OUTPUT_ITEMS.has(item.type) && item.call_id != null) return { role: 'output', id: nonEmptyString(item.call_id) };
  return { role: 'other' };
}

/** The broken pairs of a replacement history, in item order; none for one that pairs. */
export function replacementHistoryProblems(items: readonly unknown[]): KeptHistoryProblem[] {
  const problems: KeptHistoryProblem[] = [];
  const roles = items.map(roleOf);
  const called = new Set<string>();
  const open = new Set<string>();
  const answered = new Set<string>();
  // Outputs written before their call: the call they answer is not left unanswered as well.
  const early = new Set<string>();
  roles.forEach(({ role, id }, i) => {
    if (id === undefined) return;
    const pointer = `${REPLACEMENT_HISTORY}/${i}`;
    if (role === 'call') {
      if (called.has(id)) problems.push({ kind: 'duplicate-call', callId: id, pointer });
      called.add(id);
      if (early.delete(id)) answered.add(id);
      else open.add(id);
    } else if (role === 'output') {
      if (open.delete(id)) answered.add(id);
      else if (answered.has(id) || early.has(id)) problems.push({ kind: 'duplicate-result', callId: id, pointer });
      else if (roles.slice(i + 1).some((later) => later.role === 'call' && later.id === id)) {
        problems.push({ kind: 'displaced-result', callId: id, pointer });
        early.add(id);
      }
      else problems.push({ kind: 'orphan-result', callId: id, pointer });
    }
  });
  const unanswered = new Set(open);
  roles.forEach(({ role, id }, i) => {
    if (role === 'call' && id !== undefined && unanswered.delete(id)) problems.push({ kind: 'missing-result', callId: id, pointer: `${REPLACEMENT_HISTORY}/${i}` });
  });
  return problems.sort((a, b) => itemOf(a.pointer) - itemOf(b.pointer));
}

function itemOf(pointer: string): number {
  return Number(pointer.slice(pointer.lastIndexOf('/') + 1));
}

/**
 * The replacement history paired again, as repair pairs the rollout itself: a call id used again
 * is renamed on the later call and the output after it; an output before its call is moved right
 * after it; outputs with no call, and second outputs, go; an unanswered call goes (discard) or gets
 * the `"aborted"` output Codex's own normalisation would give it (synthetic). Items without a call
 * id are left where they are.
 */
export function pairReplacementHistory(items: readonly unknown[], mode: 'discard' | 'synthetic'): unknown[] {
  const renamed = renameReusedIds(items);
  const roles = renamed.map(roleOf);
  const callAt = new Map<string, number>();
  roles.forEach(({ role, id }, i) => {
    if (role === 'call' && id !== undefined && !callAt.has(id)) callAt.set(id, i);
  });
  // The output each call keeps: the first after it, else the first before it (moved after the call).
  const kept = new Map<string, number>();
  roles.forEach(({ role, id }, i) => {
    if (role !== 'output' || id === undefined || !callAt.has(id)) return;
    const previous = kept.get(id);
    if (previous === undefined || (previous < callAt.get(id)! && i > callAt.get(id)!)) kept.set(id, i);
  });
  const result: unknown[] = [];
  renamed.forEach((item, i) => {
    const { role, id } = roles[i]!;
    if (role === 'output' && id !== undefined) {
      if (kept.get(id) === i && i > callAt.get(id)!) result.push(item);
      return;
    }
    if (role !== 'call' || id === undefined || callAt.get(id) !== i) {
      result.push(item);
      return;
    }
    const answer = kept.get(id);
    if (answer === undefined && mode === 'discard') return;
    result.push(item);
    if (answer === undefined) result.push(abortedOutput(item as Json, id));
    else if (answer < i) result.push(renamed[answer]);
  });
  return result;
}

/** Later calls of an id get ids of their own, and so does the first output after each of them. */
function renameReusedIds(items: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  const pending = new Map<string, string>();
  return items.map((item, i) => {
    const { role, id } = roleOf(item);
    if (id === undefined) return item;
    if (role === 'call') {
      if (!seen.has(id)) {
        seen.add(id);
        pending.delete(id);
        return item;
      }
      const fresh = `call_${uuidFrom(`${id}#${i}`).replaceAll('-', '').slice(0, 24)}`;
      pending.set(id, fresh);
      return { ...(item as Json), call_id: fresh };
    }
    const fresh = role === 'output' ? pending.get(id) : undefined;
    if (fresh === undefined) return item;
    pending.delete(id);
    return { ...(item as Json), call_id: fresh };
  });
}

function abortedOutput(call: Json, id: string): Json {
  const type = CALL_ITEMS.get(call.type as string)!.output;
  return type === 'tool_search_output'
    ? { type, call_id: id, status: 'completed', execution: 'client', tools: [] }
    : { type, call_id: id, output: ABORTED_OUTPUT };
}
