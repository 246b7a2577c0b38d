/**
 * A problem of history an agent replays from inside its records as it stands (Codex's
 * `replacement_history`, the message list of a Gemini CLI log): a broken pair, or (see
 * KeptContractProblem) what the provider it goes to refuses in it.
 */
export type KeptHistoryProblem = KeptPairProblem | KeptContractProblem;

/** A broken pair: the list's calls and results must pair on their own. */
export interface KeptPairProblem {
  kind: 'missing-result' | 'orphan-result' | 'displaced-result' | 'duplicate-result' | 'duplicate-call';
  callId: string;
  /** JSON Pointer of the item inside the line. */
  pointer: string;
}

/**
 * What a provider's contract may refuse in the history as the agent sends it: a turn of calls that
 * opens it, a result naming another tool than its call, a blank text part, signed reasoning
 * (foreign or not is the provider choice's to say). `turn` and `part` place it in the request.
 */
export interface KeptContractProblem {
  kind: 'calls-open-history' | 'result-name-mismatch' | 'result-name-missing' | 'blank-text' | 'signed-reasoning';
  /** JSON Pointer inside the line: the message of calls, the result's name member, the blank part, the first signed part. */
  pointer: string;
  turn: number;
  part: number;
  /** result-name-mismatch, result-name-missing: the call answered, the name the result gives (none when missing) and the call's. */
  callId?: string;
  name?: string;
  callName?: string;
  /** blank-text: the part holds whitespace, not nothing. */
  whitespace?: true;
  /**
   * calls-open-history: the copy of the message that holds its place in the list (the first one
   * set since the list was last replaced): its entry, and its pointer there ('' for a line of its
   * own). A turn put before the message goes before that copy.
   */
  placed?: { entry: number; pointer: string };
}

const CONTRACT_KINDS: ReadonlySet<string> = new Set<KeptContractProblem['kind']>(['calls-open-history', 'result-name-mismatch', 'result-name-missing', 'blank-text', 'signed-reasoning']);

export function isPairProblem(problem: KeptHistoryProblem): problem is KeptPairProblem {
  return !CONTRACT_KINDS.has(problem.kind);
}
