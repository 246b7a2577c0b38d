export type Agent = 'claude' | 'codex' | 'gemini' | 'qwen' | 'copilot' | 'pi';

export interface AgentSpec {
  model: string;
  window: number;
  images: boolean;
  resultBytes?: number;
}
export const AGENTS: Record<Agent, AgentSpec>;

export interface Screenshot {
  turn: number;
  width: number;
  height: number;
  base64Length: number;
  /** Pasted with the prompt rather than returned by a tool. */
  inUserTurn?: boolean;
}

/** One oversized conversation as pi lines, with what a request built from it must keep. */
export interface Conversation {
  id: string;
  lines: Array<Record<string, unknown>>;
  prompts: string[];
  calls: string[];
  images: Screenshot[];
}
export function oversizedConversation(options: { tokens: number; model: string; images?: boolean; resultBytes?: number; seed?: number }): Conversation;
export function noisePng(width: number, height: number, seed?: number): string;

export interface ManifestEntry {
  file: string;
  id: string;
  model: string;
  window: number;
  prompts: string[];
  calls: string[];
  images: Screenshot[];
}
export function writeOversizedSessions(dir: string, options?: { agents?: Agent[]; scale?: number; images?: boolean }): Promise<Partial<Record<Agent, ManifestEntry>>>;
