/** Lines a hunk shows around each change, as `diff -u` does. */
const CONTEXT = 3;
/** How far ahead a change is looked past for the next pair of equal lines. */
const LOOKAHEAD = 2000;

type Op = { kind: ' ' | '-' | '+'; line: string };

/**
 * A unified diff (`diff -u`) of two texts, line by line, under the names given; '' when they are
 * the same. A repair keeps the lines it does not touch in their order, so equal lines are paired
 * walking both texts, and after a change the nearest line found again on either side (within
 * LOOKAHEAD lines) resumes the pairing: linear, never quadratic on a large file, and minimal for
 * the drops, insertions and rewrites a repair makes (a moved line shows as removed and added).
 */
export function unifiedDiff(before: string, after: string, nameBefore: string, nameAfter: string): string {
  if (before === after) return '';
  return `--- ${nameBefore}\n+++ ${nameAfter}\n${diffBody(before, after)}`;
}

/**
 * The same diff of two files' bytes, as bytes: what `patch` and `git apply` need to rebuild the
 * second exactly. Each byte is read as one Latin-1 character and written back as that byte, so
 * invalid UTF-8, NUL and CR survive (lines end at LF only, as patch reads them); the names are UTF-8.
 */
export function unifiedByteDiff(before: Buffer, after: Buffer, nameBefore: string, nameAfter: string): Buffer {
  if (before.equals(after)) return Buffer.alloc(0);
  return Buffer.concat([Buffer.from(`--- ${nameBefore}\n+++ ${nameAfter}\n`), Buffer.from(diffBody(before.toString('latin1'), after.toString('latin1')), 'latin1')]);
}

/** The hunks turning `before` into `after`. */
function diffBody(before: string, after: string): string {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i++]! });
      j++;
      continue;
    }
    const inB = i < a.length ? findAhead(b, a[i]!, j) : -1;
    const inA = j < b.length ? findAhead(a, b[j]!, i) : -1;
    const skipB = inB === -1 ? Infinity : inB - j;
    const skipA = inA === -1 ? Infinity : inA - i;
    if (skipA === Infinity && skipB === Infinity) {
      if (i < a.length) ops.push({ kind: '-', line: a[i++]! });
      if (j < b.length) ops.push({ kind: '+', line: b[j++]! });
    } else if (skipA <= skipB) {
      while (i < inA) ops.push({ kind: '-', line: a[i++]! });
    } else {
      while (j < inB) ops.push({ kind: '+', line: b[j++]! });
    }
  }
  return hunks(ops).join('');
}

/** Where `line` is next in `lines` from `from`, looking LOOKAHEAD lines ahead at most; -1 if not there. */
function findAhead(lines: readonly string[], line: string, from: number): number {
  for (let k = from, end = Math.min(lines.length, from + LOOKAHEAD); k < end; k++) if (lines[k] === line) return k;
  return -1;
}

/** Lines without their endings; a last line without one is marked as `diff` marks it. */
function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  else lines[lines.length - 1] += '\n\\ No newline at end of file';
  return lines;
}

function hunks(ops: readonly Op[]): string[] {
  const out: string[] = [];
  let at = 0;
  let lineA = 1;
  let lineB = 1;
  while (at < ops.length) {
    // From where the last hunk stopped, not from the start: many hunks stay linear.
    let change = at;
    while (change < ops.length && ops[change]!.kind === ' ') change++;
    if (change === ops.length) break;
    // Extend the hunk while the next change is within twice the context of the last one.
    let end = change;
    for (let k = change; k < ops.length && k - end <= 2 * CONTEXT; k++) if (ops[k]!.kind !== ' ') end = k;
    const start = Math.max(at, change - CONTEXT);
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    for (let k = at; k < start; k++) (lineA++, lineB++);
    const slice = ops.slice(start, stop);
    const countA = slice.filter((op) => op.kind !== '+').length;
    const countB = slice.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${range(lineA, countA)} +${range(lineB, countB)} @@\n`);
    for (const op of slice) out.push(`${op.kind}${op.line}\n`);
    lineA += countA;
    lineB += countB;
    at = stop;
  }
  return out;
}

function range(start: number, count: number): string {
  const from = count === 0 ? start - 1 : start;
  return count === 1 ? `${from}` : `${from},${count}`;
}
