import type { Transcript } from '../model/transcript.js';
import type { RepairCounts } from '../repair/plan.js';
import type { Finding, RepairSummary } from './finding.js';
import type { LineWork, RepairedLine } from './line-work.js';

// A repair of a file of conversations reads it twice (rewrite-conversations.ts): what the first
// read hands the second, and what the second, which may copy the file around the changed lines
// (splice-conversations.ts), hands back.

/** What the first read of a file of conversations learned: the lines a repair changes, and the findings of the others. */
export interface ConversationPlan extends LineWork {
  /** Lines whose conversation the repair changes. */
  changing: Set<number>;
  /** Findings of the lines it leaves as they are, by line. */
  findings: Map<number, Finding[]>;
  /** Changing lines already repaired, by line: the second read writes these as they are. */
  repaired: Map<number, RepairedLine>;
}

/** What the second read wrote. */
export interface WrittenConversations {
  /** The file-level model of the output (its lines and endings; conversations make no entries). */
  output: Transcript;
  /** Findings left in the output, with its line numbers. */
  findings: Finding[];
  counts: RepairCounts;
  lines: RepairSummary['lines'];
}
