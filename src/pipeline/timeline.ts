/**
 * What a file's conversation looked like around its findings, for reporters that draw it (html).
 * Plain data, so it crosses from a scan thread like the rest of a report. Only the neighbourhood
 * of each finding is kept turn by turn; everything else is counted, so a file of millions of
 * lines gives a timeline of a few hundred turns.
 */
export interface Timeline {
  /** The replayed path in replay order, with folded history and branches where they fork. */
  items: TimelineItem[];
  counts: {
    /** Entries on the replayed path that reach the model (or bookkeeping beside them). */
    replayed: number;
    /** Entries on the path that a compaction replaced with its summary. */
    compacted: number;
    /** Entries off the replayed path: abandoned branches and detached pieces. */
    abandoned: number;
  };
  /** Why some turns show no text (standard input is not read twice). */
  textNote?: string;
}

export type TimelineItem = TimelineTurn | TimelineGap | TimelineFold;

/** How a turn is drawn: its role for messages, its kind otherwise; `line` is a line with no entry (unreadable). */
export type TurnRole = 'user' | 'assistant' | 'tool' | 'other' | 'compaction' | 'branch-summary' | 'context' | 'state' | 'header' | 'unknown' | 'line';

export interface TimelineTurn {
  type: 'turn';
  line: number;
  role: TurnRole;
  /** How an assistant turn ended, when not plainly. */
  outcome?: string;
  calls?: Array<{ name?: string; id?: string }>;
  results?: Array<{ callId?: string; name?: string }>;
  bytes: number;
  /** The turn's words, secrets masked, cut to a bounded length. */
  text?: string;
  /** Length of the text in the file, when `text` is only its start. */
  textChars?: number;
  /** Why there is no text, or what is wrong with an unreadable line. */
  note?: string;
}

/** Turns left out between shown ones, counted. */
export interface TimelineGap {
  type: 'gap';
  turns: number;
  fromLine: number;
  toLine: number;
  /** Folded regions inside the gap, and their entries. */
  folds: number;
  foldedEntries: number;
}

/** History the replay skips: a compacted stretch of the path, a branch left behind, or entries not linked to the path at all. */
export interface TimelineFold {
  type: 'fold';
  kind: 'compacted' | 'abandoned' | 'detached';
  entries: number;
  fromLine: number;
  toLine: number;
  /** The line of the path entry an abandoned branch forks from. */
  forkLine?: number;
  items: TimelineItem[];
}

/** Turns drawn on each side of a finding (bookkeeping entries between them are drawn too, uncounted). */
export const NEIGHBOURS = 3;
/** Finding lines that get a neighbourhood; beyond this a file's timeline would stop being a summary. */
export const MAX_PINNED_LINES = 100;
/** A file this small is drawn whole. */
export const SMALL_FILE_ENTRIES = 60;
