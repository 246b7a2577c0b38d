import type { RepairCounts } from '../repair/plan.js';
import type { RepairSummary } from '../pipeline/finding.js';

const WORDS: Array<[keyof RepairCounts, string, string]> = [
  ['droppedLines', 'dropped line', 'dropped lines'],
  ['droppedToolCalls', 'dropped tool call', 'dropped tool calls'],
  ['droppedAssistantMessages', 'dropped assistant message', 'dropped assistant messages'],
  ['addedResults', 'added result', 'added results'],
  ['addedBridges', 'added bridge message', 'added bridge messages'],
  ['droppedDuplicates', 'dropped duplicate', 'dropped duplicates'],
  ['droppedOrphans', 'dropped orphan', 'dropped orphans'],
  ['splitLines', 'split glued line', 'split glued lines'],
  ['joinedRecords', 'joined record cut over lines', 'joined records cut over lines'],
  ['renamedToolCalls', 'renamed tool call', 'renamed tool calls'],
  ['movedResults', 'moved result', 'moved results'],
  ['relinkedEntries', 'relinked entry', 'relinked entries'],
  ['rewrittenEntries', 'rewritten entry', 'rewritten entries'],
];

/** "dropped 2 lines, moved 1 result" — the non-zero counters in words. */
function describeCounts(counts: RepairCounts): string {
  const parts = WORDS.filter(([key]) => counts[key] > 0).map(([key, one, many]) => {
    const [verb, ...rest] = (counts[key] === 1 ? one : many).split(' ');
    return `${verb} ${counts[key]} ${rest.join(' ')}`;
  });
  return parts.join(', ');
}

export function pastTense(verb: string): string {
  if (verb === 'slim') return 'slimmed';
  return verb.endsWith('e') ? `${verb}d` : `${verb}ed`;
}

/** One line per file: what the rewrite did and where the result went. */
export function describeRepair(summary: RepairSummary, dryRun: boolean, source: string, verb = 'repair'): string {
  if (!summary.changed) return summary.note ?? `nothing to ${verb}`;
  const done = describeCounts(summary.counts) || 'normalised line endings';
  const where = summary.output === undefined || summary.output === '-' || summary.output === source ? '' : ` → ${summary.output}`;
  const pruned = summary.prunedBackups === undefined ? '' : `; ${summary.prunedBackups.length} older removed (--keep-backups)`;
  const backup = summary.backupPath === undefined ? '' : ` (backup: ${summary.backupPath}${pruned})`;
  return `${dryRun ? `would ${verb}` : pastTense(verb)}: ${done}${where}${backup}`;
}

/** For --dry-run: which source lines change, each list cut after `maxRanges` ranges ("… and 59990 more"). */
export function describeLines(summary: RepairSummary, maxRanges = Infinity): string[] {
  const { dropped, moved, rewritten } = summary.lines;
  const list = (label: string, lines: number[]) => (lines.length === 0 ? [] : [`${label} ${compact(lines, maxRanges)}`]);
  return [...list('drop lines', dropped), ...list('move lines', moved), ...list('rewrite lines', rewritten)];
}

/** 3, 4, 5, 9 → "3-5, 9". */
function compact(lines: number[], maxRanges: number): string {
  const ranges: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (ranges.length === maxRanges) return `${ranges.join(', ')} … and ${lines.length - i} more`;
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j]! + 1) j++;
    ranges.push(i === j ? `${lines[i]}` : `${lines[i]}-${lines[j]}`);
    i = j;
  }
  return ranges.join(', ');
}
