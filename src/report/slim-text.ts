import type { SizeSnapshot, SlimReport, StrategyId } from '../slim/report.js';
import { formatBytes } from '../slim/stubs.js';

const NAMES: Record<StrategyId, { name: string; part: [string, string] }> = {
  'images-over-limit': { name: 'images over a limit', part: ['image stubbed', 'images stubbed'] },
  'old-images': { name: 'older images', part: ['image stubbed', 'images stubbed'] },
  'old-results': { name: 'older tool results', part: ['text trimmed', 'texts trimmed'] },
  thinking: { name: 'thinking after the first edit', part: ['block dropped', 'blocks dropped'] },
  compaction: { name: 'compaction', part: ['record written', 'records written'] },
};

const n = (value: number) => Math.round(value).toLocaleString('en-US');

function size(snapshot: SizeSnapshot): string {
  return `${n(snapshot.tokens)} tokens (≤ ${n(snapshot.high)}), ${formatBytes(snapshot.bytes)}${snapshot.media > 0 ? `, ${snapshot.media} media` : ''}`;
}

/** The lines stylish prints for one slimmed session: the size before and after against the target, and what each strategy took out. */
export function describeSlim(report: SlimReport): string[] {
  const { target } = report;
  const share = Math.round((target.tokens / target.window) * 100);
  const lines = [
    `target ${n(target.tokens)} tokens (${share}% of ${n(target.window)}: ${target.windowSource}), ${formatBytes(target.bytes)} per request`,
    `before ${size(report.before)}`,
    `after  ${size(report.after)}${report.fits ? ' — fits' : ' — still over the target'}`,
  ];
  for (const result of report.strategies) {
    const { name, part } = NAMES[result.strategy];
    lines.push(`  ${name}: ${result.parts} ${result.parts === 1 ? part[0] : part[1]} on ${result.lines.length} line${result.lines.length === 1 ? '' : 's'}, saved ${formatBytes(result.savedBytes)}, about ${n(result.savedTokens)} tokens`);
  }
  for (const why of report.left ?? []) lines.push(`  left: ${why}`);
  return lines;
}
