import type { Analysis } from '../model/analysis.js';
import type { PlanBuilder } from './plan-builder.js';

/**
 * pi trusts only the first parsed line: if it is not a valid header, pi overwrites the file.
 * So a missing header is rebuilt (or an existing one moved to the top), an empty session id is
 * filled in, and extra headers are dropped.
 */
export function repairHeader(analysis: Analysis, builder: PlanBuilder, sessionId: string): void {
  const entries = analysis.entries;
  const headers = entries.ofKind('header');
  const first = headers[0];
  for (const extra of headers.slice(1)) {
    builder.skip(extra.line);
    builder.count('droppedLines');
  }
  const firstEntry = entries.find((entry) => !builder.skipped(entry.line));
  if (first === undefined) {
    if (firstEntry === undefined) return;
    const tree = entries.some((entry) => entry.id !== undefined && !entry.linksToPrevious);
    builder.place(0, { kind: 'new', value: { kind: 'header', id: sessionId, version: tree ? 3 : undefined, timestampFrom: firstEntry.line } });
    builder.count('rewrittenEntries');
    return;
  }
  if (firstEntry?.index !== first.index) {
    builder.skip(first.line);
    builder.place(0, { kind: 'move', line: first.line });
  }
  if (!first.header!.valid) {
    builder.edit(first.line, { kind: 'set-session-id', id: sessionId });
    builder.count('rewrittenEntries');
  }
}
