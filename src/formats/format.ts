import type { Entry } from '../model/entry.js';

/** Turns parsed lines of one file into neutral entries. One decoder per file: it may keep state. */
export interface Decoder {
  decode(value: unknown, line: number, index: number): Entry;
}

/**
 * A transcript format. Everything that knows a format's field names lives behind this
 * interface; the rest of the program sees only neutral entries.
 */
export interface TranscriptFormat {
  name: string;
  /** True when a parsed line is unmistakably from this format. */
  detect(value: unknown): boolean;
  createDecoder(): Decoder;
}
