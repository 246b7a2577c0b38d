import type { NewLine } from '../model/edits.js';
import type { Entry } from '../model/entry.js';

/** A node of the repaired replay path: an entry of the file, or a line the repair adds after one (or, a bridge that opens the history, before one). */
export type Node =
  | { entry: Entry }
  | { added: Extract<NewLine, { kind: 'missing-result' | 'bridge' }>; after: Entry }
  | { added: Extract<NewLine, { kind: 'bridge' }>; before: Entry };
