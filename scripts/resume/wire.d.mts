export type Wire = 'anthropic' | 'responses' | 'chat' | 'gemini';
export interface Turn {
  role: string;
  texts: string[];
  calls: string[];
  results: Array<{ id: string; text: string }>;
}
export const WIRES: Record<Wire, (body: unknown) => Turn[]>;
export function turnsOf(wire: Wire, body: unknown): Turn[];
export function pairing(turns: Turn[]): string[];
export function imagesIn(value: unknown, out?: string[]): string[];
export function imageKey(text: string): string;
