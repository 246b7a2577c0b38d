import type { DocumentRef, HeaderInfo, ImageRef, KeptHistoryProblem, SchemaBreak, ServerToolRef } from './entry.js';

/** What few entries have: a map beside the columns instead of a column each. */
export interface RareFields {
  logicalParentId?: string;
  clearsUsageThrough?: string;
  serverTools?: ServerToolRef[];
  header?: HeaderInfo;
  firstKeptId?: string;
  blankTextBlocks?: string[];
  whitespaceTextBlocks?: string[];
  rollsBackTurns?: number;
  wipesHistory?: string;
  placeholderTurns?: string[];
  emptyTurns?: string[];
  trailingResults?: true;
  keptHistoryProblems?: KeptHistoryProblem[];
  provider?: string;
  trailingWhitespace?: true;
  images?: ImageRef[];
  lostType?: string;
  unreadableParts?: Array<{ pointer: string; type: string; readAs?: string }>;
  schemaBreaks?: SchemaBreak[];
  agent?: string;
  model?: string;
  contextWindow?: number;
  documents?: DocumentRef[];
  longString?: { pointer: string; length: number };
  /** An entry pointer beyond the codes the info word holds. */
  pointer?: string;
  /** firstKeptId's handle, taken while loading: the id index is gone once a store is trimmed. */
  firstKeptRef?: number;
}
