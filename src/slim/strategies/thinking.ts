import type { SlimSession } from '../session.js';

/**
 * The thinking rule. A thinking block is never edited, nor its signature stripped. Providers with
 * preserved thinking check the prefix a block was produced after: once slim edits a message, every
 * thinking and redacted_thinking block sent after that edit is invalid and goes whole. The latest
 * turn (everything after the last user prompt) is kept byte for byte: the provider wants the
 * current tool loop's thinking unmodified, so nothing there is dropped.
 */
export class ThinkingRule {
  /** Thinking has been dropped from this position on (up to the last prompt). */
  private doneFrom: number;
  /** Lines dropped whole because thinking was all they held. */
  readonly droppedLines = new Set<number>();
  /** Entries of those lines. */
  readonly droppedEntries: number[] = [];

  constructor(private readonly session: SlimSession) {
    this.doneFrom = session.lastPrompt + 1;
  }

  /** Drops the thinking the edits so far invalidate; call after each edit. */
  follow(): void {
    const session = this.session;
    const from = session.firstEdit;
    if (from >= this.doneFrom) return;
    const { entries } = session.analysis;
    for (const line of session.lines(from, this.doneFrom, (entry) => session.isAssistant(entry) && (session.bytesOf(entry, 'thinking') > 0 || session.hasSignedThinking(entry)))) {
      const thinking = line.parts.filter((part) => part.kind === 'thinking');
      if (thinking.length === 0) continue;
      // Counted as the size measure counts it (the decoder's thinking and signature bytes), never
      // more: the view's length holds the whole block with its JSON, and a saving counted larger
      // than the measure sees left the first pass over its target. A signature is bytes, no tokens.
      const shown = thinking.reduce((sum, part) => sum + (part.kind === 'thinking' ? part.length : 0), 0);
      const text = Math.min(shown, session.bytesOf(line.entry, 'thinking'));
      const signature = Math.min(shown - text, session.bytesOf(line.entry, 'signature'));
      const saved = { bytes: text + signature, tokens: session.budget.takeText(text) };
      session.budget.takeBytes(signature);
      // A part at '' is the whole line (Codex's reasoning items); a line left with nothing goes too.
      if (thinking.some((part) => part.pointer === '') || thinking.length === entries.blockCount(line.entry)) {
        session.builder.skip(line.line);
        this.droppedLines.add(line.line);
        this.droppedEntries.push(line.entry);
        session.count('thinking', line.line, saved);
      } else {
        session.edit('thinking', line.at, line.line, { kind: 'drop-parts', pointers: thinking.map((part) => part.pointer) }, saved);
      }
    }
    this.doneFrom = from;
  }
}
