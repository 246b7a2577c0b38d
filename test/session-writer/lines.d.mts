export interface SessionLines {
  /** The id the next entry will name as its parent (pi and Claude Code); set it to continue a file. */
  leaf: string | null;
  header(): object | undefined;
  user(text: string): object;
  reply(text: string): object;
  /** The lines of one assistant response calling these tools ([id, name] pairs). */
  assistantLines(calls: Array<[string, string]>): object[];
  result(callId: string, name: string): object;
  aside(): object;
  /** Claude Code only: a sub-agent's lines in this session's file (isSidechain), with `agentId` when given. */
  sideChain?(prefix: string, agentId?: string): SessionLines;
}
export function sessionLines(format: string, prefix?: string): SessionLines;
export function pairingOf(format: string, value: unknown): { calls: string[]; results: string[] };
export function unansweredCalls(format: string, text: string): string[];
