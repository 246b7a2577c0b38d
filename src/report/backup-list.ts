import type { Backup } from '../io/backups.js';
import { formatBytes } from '../commands/progress.js';
import { terminalText } from './terminal-text.js';

/** How many backups in-place writes keep, and what says so. */
export interface BackupBound {
  keep: number;
  /** The config file that set it; undefined: the default. */
  from?: string;
}

/**
 * `restore --list`: one backup a line, newest first, as name, size and age, in columns, and with
 * a bound, a last line saying it; the backups the next in-place write will remove are marked:
 *
 *     s.jsonl.bak-2026-11-26T10-05-00-123Z  48 kB  5 min ago
 *     s.jsonl.bak-2026-11-26T09-05-00-123Z  48 kB  1 h ago    removed by the next in-place write
 *     2 backups (96 kB); in-place writes keep the newest 2 …
 */
export function backupListText(backups: readonly Backup[], now: Date, bound?: BackupBound): string {
  const rows = backups.map((backup) => [terminalText(backup.name), formatBytes(backup.size), age(now.getTime() - backup.time.getTime())] as const);
  const nameWidth = Math.max(...rows.map((row) => row[0].length));
  const sizeWidth = Math.max(...rows.map((row) => row[1].length));
  const ageWidth = Math.max(...rows.map((row) => row[2].length));
  // The next write keeps its own new backup and the newest keep - 1 of these.
  const going = (i: number) => bound !== undefined && i >= bound.keep - 1;
  const lines = rows.map(([name, size, ago], i) => `${name.padEnd(nameWidth)}  ${size.padStart(sizeWidth)}  ${going(i) ? `${ago.padEnd(ageWidth)}  removed by the next in-place write` : ago}\n`);
  if (bound === undefined) return lines.join('');
  const total = formatBytes(backups.reduce((sum, backup) => sum + backup.size, 0));
  const source = bound.from === undefined ? 'the default; --keep-backups or "keepBackups" in the config changes it' : `"keepBackups" in ${terminalText(bound.from)}`;
  const count = `${backups.length} backup${backups.length === 1 ? '' : 's'} (${total})`;
  return `${lines.join('')}${count}; in-place writes keep the newest ${bound.keep} (${source}), removing older ones once a write has succeeded\n`;
}

/** How long ago, in the largest unit that fits; a stamp from the future (a clock changed since) says so. */
export function age(ms: number): string {
  if (ms < 0) return 'in the future';
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}
