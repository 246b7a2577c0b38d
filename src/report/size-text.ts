import type { SizeKind } from '../model/size/request-size.js';
import type { SizeSummary } from '../pipeline/size-summary.js';

const n = (value: number) => value.toLocaleString('en-US');

/** A share of the request's tokens, in whole percent ("<1%" for a sliver, so nothing present reads as nothing). */
function percent(part: number, whole: number): string {
  if (whole <= 0 || part <= 0) return '0%';
  const share = (100 * part) / whole;
  return share < 1 ? '<1%' : `${Math.round(share)}%`;
}

/** The kinds largest first, without those the request does not hold. */
export function kindsBySize(size: SizeSummary): Array<{ kind: SizeKind; bytes: number; tokens: number; count: number }> {
  return (Object.entries(size.byKind) as Array<[SizeKind, SizeSummary['byKind'][SizeKind]]>)
    .filter(([, share]) => share.count > 0)
    .map(([kind, share]) => ({ kind, ...share }))
    .sort((a, b) => b.tokens - a.tokens || b.bytes - a.bytes);
}

export function totalTokens(size: SizeSummary): number {
  let total = 0;
  for (const share of Object.values(size.byKind)) total += share.tokens;
  return total;
}

/** The headline: tokens against the window, and who judges it. */
export function sizeHeadline(size: SizeSummary): string {
  const { estimate, high } = size.tokens;
  const window = size.window;
  const against =
    window === null
      ? 'no known context window (name the provider with --provider)'
      : `of a ${n(window.tokens)}-token window (${percent(estimate, window.tokens)}; ${window.family === 'default' ? 'the provider’s default, model not in the table' : window.family})`;
  const who = [size.model, size.judgedBy === null ? undefined : `judged as ${size.judgedBy}`].filter(Boolean).join(', ');
  return `≈ ${n(estimate)} input tokens (up to ${n(high)}) ${against}${who === '' ? '' : ` · ${who}`}`;
}

/** What makes a session big, as lines of plain text (`--statistics`): tokens, bytes, media, kinds, tools, the largest entries. */
export function sizeLines(size: SizeSummary): string[] {
  const total = totalTokens(size);
  const anchor = size.tokens.anchor;
  const lines = [
    sizeHeadline(size),
    `${n(size.bytes)} bytes · ${n(size.media.images)} image${size.media.images === 1 ? '' : 's'}, ${n(size.media.pdfPages)} PDF page${size.media.pdfPages === 1 ? '' : 's'} · ` +
      (anchor === null ? `estimated with ${size.tokens.estimator}, no usage recorded` : `recorded usage ${n(anchor.tokens)} at line ${n(anchor.line)}, ${size.tokens.estimator} after it`),
    `by kind:  ${kindsBySize(size)
      .map((share) => `${share.kind} ${percent(share.tokens, total)} (${n(share.tokens)} tokens, ${n(share.count)})`)
      .join(' · ')}`,
  ];
  if (size.byTool.length > 0) lines.push(`by tool:  ${size.byTool.map((tool) => `${tool.tool} ${percent(tool.tokens, total)} (${n(tool.tokens)} tokens, ${n(tool.count)})`).join(' · ')}`);
  for (const entry of size.largest) {
    lines.push(`  line ${n(entry.line).padStart(7)}  ${entry.kind}${entry.tool === null ? '' : ` ${entry.tool}`}  ${n(entry.bytes)} bytes ≈ ${n(entry.tokens)} tokens`);
  }
  return lines;
}
