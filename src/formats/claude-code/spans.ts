import { trimmedBytes, valueSpan } from '../../json/byte-spans.js';
import type { EntryEdit } from '../../model/edits.js';
import type { ByteSplice } from '../format.js';

/**
 * Claude Code's edits that touch one member, as splices of the line's bytes (Encoder.spans): a
 * relink's `parentUuid`, and a trimmed result text, cut where `trimmedText` cuts it. Slim makes
 * thousands of both on a long session; parsing each line whole to change one member cost more than
 * the rest of the write. Any other edit, or a line not shaped as expected, is left to `apply`.
 */
export function claudeCodeSpans(bytes: Buffer, edits: readonly EntryEdit[]): ByteSplice[] | undefined {
  const splices: ByteSplice[] = [];
  for (const edit of edits) {
    if (edit.kind === 'set-parent') {
      const span = valueSpan(bytes, '/parentUuid');
      if (span === undefined) return undefined;
      splices.push({ ...span, text: JSON.stringify(edit.parentId) });
    } else if (edit.kind === 'trim-text') {
      const span = valueSpan(bytes, edit.pointer);
      if (span === undefined || bytes[span.start] !== 0x22) return undefined;
      const cut = trimmedBytes(bytes, span, edit.head, edit.tail);
      // A text the trim keeps whole stays as it is.
      if (cut !== undefined) splices.push({ ...cut, text: JSON.stringify(edit.stub).slice(1, -1) });
    } else return undefined;
  }
  splices.sort((a, b) => a.start - b.start);
  for (let k = 1; k < splices.length; k++) if (splices[k]!.start < splices[k - 1]!.end) return undefined;
  return splices;
}
