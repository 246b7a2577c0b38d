import type { ReplaySemantics } from '../../model/transcript.js';
import type { Decoder, Encoder } from '../format.js';

/** The provider API a request shape talks to (the ids of src/providers). */
export type ShapeProvider = 'openai-chat' | 'anthropic' | 'openai-responses' | 'gemini';

/** One provider's request shape: where its conversation list sits and how its items read and are written. */
export interface RequestShape {
  provider: ShapeProvider;
  /** The member of the request holding the conversation. */
  list: 'messages' | 'input' | 'contents';
  semantics: ReplaySemantics;
  /** A decoder of the list's items; `list` is the list's pointer inside the line. */
  createDecoder(list: string): Decoder;
  encoder: Encoder;
  /** The repaired list as the provider wants it, when items must be grouped again (Gemini's single response turn). */
  arrange?(items: unknown[]): unknown[];
}
