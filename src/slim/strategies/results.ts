import type { SlimPart } from '../../formats/slim-view.js';
import type { SlimSession } from '../session.js';
import { trimmedText } from '../../formats/slim-edits.js';
import { trimStub } from '../stubs.js';
import type { ThinkingRule } from './thinking.js';

/** How much of a result's text a trim keeps, and the shortest text worth trimming; lighter first. */
export const TRIM_TIERS = [
  { head: 1500, tail: 1500, longerThan: 8000 },
  { head: 400, tail: 200, longerThan: 1500 },
] as const;

type ResultText = Extract<SlimPart, { kind: 'result-text' }>;

/**
 * 3. Old tool results, oldest first, outside the protected turns: each text keeps its head and
 * tail, and a stub between them names the tool, the path or command it ran on, the original size,
 * and where the whole text is. A text slim trimmed once is never trimmed again, so a second run
 * at the same target finds nothing to do.
 */
export function trimOldResults(session: SlimSession, thinking: ThinkingRule): void {
  if (session.budget.fits()) return;
  const { entries } = session.analysis;
  const trimmed = new Set<string>();
  // Lines a tier read whose results the next tier would find nothing in: not read again.
  let spent = new Set<number>();
  for (const [k, tier] of TRIM_TIERS.entries()) {
    const next = TRIM_TIERS[k + 1];
    const nextSpent = new Set<number>();
    // Only lines whose results are long enough are read, and only until the request fits.
    for (const line of session.lines(0, session.protectedFrom, (entry) => entries.hasResults(entry) && session.bytesOf(entry, 'toolResult') > tier.longerThan && !spent.has(entries.line(entry)))) {
      let left = false;
      for (const part of line.parts) {
        if (session.budget.fits()) return;
        if (part.kind !== 'result-text' || part.slimmed === true) continue;
        const key = `${line.line} ${part.pointer}`;
        if (part.length > tier.longerThan && !trimmed.has(key) && trim(session, line, part, tier, trimmed)) {
          thinking.follow();
          continue;
        }
        if (next !== undefined && part.length > next.longerThan && !trimmed.has(key)) left = true;
      }
      if (!left) nextSpent.add(line.line);
    }
    spent = nextSpent;
  }
}

function trim(session: SlimSession, line: { at: number; line: number }, part: ResultText, tier: (typeof TRIM_TIERS)[number], trimmed: Set<string>): boolean {
  const call = part.callId === undefined ? undefined : session.callFacts(part.callId);
  const cut = part.length - tier.head - tier.tail;
  const stub = trimStub(cut, part.length, call?.name, call?.target);
  // Counted as the size measure counts text, in UTF-8 bytes: the text's less what the trim leaves
  // (counted in characters, a cut of non-ASCII text was short, and the planner trimmed more than needed).
  const bytes = Buffer.byteLength(part.text, 'utf8') - Buffer.byteLength(trimmedText(part.text, tier.head, tier.tail, stub), 'utf8');
  if (bytes <= 0) return false;
  trimmed.add(`${line.line} ${part.pointer}`);
  session.edit('old-results', line.at, line.line, { kind: 'trim-text', pointer: part.pointer, head: tier.head, tail: tier.tail, stub }, { bytes, tokens: session.budget.takeText(bytes) });
  return true;
}
