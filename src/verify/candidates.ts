import type { Analysis } from '../model/analysis.js';
import { isFailed, type Entry } from '../model/entry.js';
import { isHeartbeat } from './heartbeat.js';
import type { LineTexts } from './lines.js';
import type { VerifySettings } from './settings.js';

/** One conversation turn: a user message and everything up to the next one. */
export interface Turn {
  user?: Entry;
  entries: Entry[];
}

/** An assistant message that ends a turn, and whether the judge should see it. */
export interface Candidate {
  response: Entry;
  turn: Turn;
  /** Earlier turns on the path, oldest first. */
  history: Turn[];
  heartbeat: boolean;
  /** Why it is not judged; undefined when it is. */
  skip?: string;
}

/**
 * Walks the replayed path turn by turn and applies the seed's deterministic pre-checks, then
 * the trigger mode (keywords, all, heartbeat). Every assistant message gets a decision.
 */
export function selectCandidates(analysis: Analysis, texts: LineTexts, settings: VerifySettings): Candidate[] {
  const turns = splitTurns(
    // A sub-agent's messages are its own conversation's (see Entry.agent), not the session's turns.
    analysis.tree.replayPath.map((index) => analysis.entries.at(index)).filter((entry) => entry.agent === undefined),
    (entry) => isVerifierFeedback(texts.of(entry).text),
  );
  const candidates: Candidate[] = [];
  turns.forEach((turn, t) => {
    const delivered = new Set<string>();
    // An answer is the last reply the agent sends before the user speaks again (verifier feedback included);
    // replies it went on from are steps (Codex writes commentary as messages of their own).
    const wentOn = new Set<number>();
    for (let at = turn.entries.length - 1, later = false; at >= 0; at--) {
      const entry = turn.entries[at]!;
      if (entry.role === 'user') later = false;
      else if (isAnswer(entry)) {
        if (later) wentOn.add(at);
        later = true;
      }
    }
    turn.entries.forEach((entry, at) => {
      if (entry.role !== 'assistant') return;
      const text = texts.of(entry);
      const userText = turn.user === undefined ? '' : texts.of(turn.user).text;
      const heartbeat = isHeartbeat(userText, text.text);
      const candidate: Candidate = { response: entry, turn, history: turns.slice(Math.max(0, t - 5), t), heartbeat };
      candidate.skip = skipReason(entry, text.text, text.toolNames, delivered, heartbeat, settings) ?? (wentOn.has(at) ? 'the turn went on after it, not its final answer' : undefined);
      for (const name of text.toolNames) if (settings.messagingTools.includes(name)) delivered.add(name);
      candidates.push(candidate);
    });
  });
  return candidates;
}

function isAnswer(entry: Entry): boolean {
  return entry.role === 'assistant' && !entry.transcriptOnly && !isFailed(entry);
}

function skipReason(entry: Entry, text: string, toolNames: string[], delivered: Set<string>, heartbeat: boolean, settings: VerifySettings): string | undefined {
  if (entry.transcriptOnly) return 'transcript-only entry (delivery mirror or injected line)';
  if (entry.toolCalls !== undefined || entry.outcome === 'toolUse' || toolNames.length > 0) return 'tool-call turn, not a final answer';
  if (isFailed(entry)) return `the turn ${entry.outcome === 'error' ? 'failed' : 'was aborted'}`;
  if (text.trim() === '') return 'empty response';
  if (delivered.size > 0) return `already delivered through ${[...delivered].join(', ')} in this turn`;
  if (heartbeat) return settings.verifyHeartbeat ? undefined : 'heartbeat run (use --heartbeat to judge these)';
  if (settings.verifyAll) return undefined;
  const lower = text.toLowerCase();
  const hit = settings.triggerKeywords.some((keyword) => new RegExp(`(^|[^a-z])${escape(keyword.toLowerCase())}($|[^a-z])`).test(lower));
  return hit ? undefined : 'no trigger keyword (use --all to judge every answer)';
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Feedback a verifier loop injected as a user message: `[Verification: … Category: … Feedback: …]`. */
export function isVerifierFeedback(text: string): boolean {
  return /^\s*\[Verification:|\bFAIL \[[a-z_]+\]:/.test(text);
}

/**
 * Turns start at each user message, except verifier feedback, which continues the turn it
 * judged; what comes before the first user message forms a turn without one.
 */
function splitTurns(path: readonly Entry[], isFeedback: (entry: Entry) => boolean): Turn[] {
  const turns: Turn[] = [];
  let current: Turn = { entries: [] };
  for (const entry of path) {
    if (entry.role === 'user' && !(current.user !== undefined && isFeedback(entry))) {
      if (current.user !== undefined || current.entries.length > 0) turns.push(current);
      current = { user: entry, entries: [] };
    } else if (entry.kind === 'message') {
      current.entries.push(entry);
    }
  }
  if (current.user !== undefined || current.entries.length > 0) turns.push(current);
  return turns;
}
