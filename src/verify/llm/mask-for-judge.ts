import { redacted } from './secret-rule.js';
import { maskSecrets } from './secrets.js';
import { secretlint, type Detection, type Detector } from './secretlint.js';

/** Between texts in the detector's single input: a blank line ends every token and every one-line shape. */
const SEPARATOR = '\n\n';

/** What ends a token when a detection is widened: the detector's range may cover only part of a key. */
const DELIMITER = /[\s"'`<>()[\]{},;|]/;

interface Span {
  start: number;
  end: number;
  kind: string;
}

/**
 * Masks every text that will be sent to the judge: our own patterns first, then a maintained detector (secretlint's
 * recommended preset) over all the texts at once, each of its finds widened to the whole token it sits in. Fails
 * closed: if the detector throws or answers nonsense this rejects, and the caller must send nothing.
 */
export async function maskForJudge(texts: readonly string[], detect: Detector = secretlint): Promise<string[]> {
  const ours = texts.map((text) => maskSecrets(text).text);
  const joined = ours.join(SEPARATOR);
  const spans = widen(joined, (await detect(joined)).map((detection) => checked(detection, joined.length)));
  const masked: string[] = [];
  let offset = 0;
  let next = 0;
  for (const text of ours) {
    const end = offset + text.length;
    const inside: Span[] = [];
    // Spans are sorted and disjoint; one crossing a separator is clipped to each text it touches.
    while (next < spans.length && spans[next]!.start < end) {
      const span = spans[next]!;
      if (span.end > offset) inside.push({ start: Math.max(span.start, offset) - offset, end: Math.min(span.end, end) - offset, kind: span.kind });
      if (span.end > end) break;
      next++;
    }
    masked.push(replaceSpans(text, inside));
    offset = end + SEPARATOR.length;
  }
  return masked;
}

function checked(detection: Detection, length: number): Detection {
  const { start, end } = detection;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > length || start > end) {
    throw new Error(`the secret detector reported an impossible range [${String(start)}, ${String(end)}]`);
  }
  return detection;
}

/** Sorts, widens each detection to whole tokens and merges overlaps; each character is scanned at most twice. */
function widen(text: string, detections: Detection[]): Span[] {
  const spans: Span[] = [];
  for (const detection of [...detections].sort((a, b) => a.start - b.start)) {
    const last = spans.at(-1);
    if (last !== undefined && detection.start < last.end) {
      if (detection.end > last.end) last.end = tokenEnd(text, detection.end);
      continue;
    }
    const floor = last?.end ?? 0;
    let start = detection.start;
    while (start > floor && !DELIMITER.test(text[start - 1]!)) start--;
    const end = tokenEnd(text, Math.max(detection.end, start));
    if (end > start) spans.push({ start, end, kind: detection.kind });
  }
  return spans;
}

function tokenEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !DELIMITER.test(text[end]!)) end++;
  return end;
}

function replaceSpans(text: string, spans: readonly Span[]): string {
  let result = '';
  let from = 0;
  for (const span of spans) {
    result += text.slice(from, span.start) + redacted(span.kind);
    from = span.end;
  }
  return result + text.slice(from);
}
