import type { Backup } from '../io/backups.js';
import { formatBytes } from '../commands/progress.js';
import { terminalText } from './terminal-text.js';

/**
 * `restore --list`: one backup a line, newest first, as name, size and age, in columns:
 *
 *     s.jsonl.bak-2026-11-26T10-05-00-123Z  48 kB  5 min ago
 */
export function backupListText(backups: readonly Backup[], now: Date): string {
  const rows = backups.map((backup) => [terminalText(backup.name), formatBytes(backup.size), age(now.getTime() - backup.time.getTime())] as const);
  const nameWidth = Math.max(...rows.map((row) => row[0].length));
  const sizeWidth = Math.max(...rows.map((row) => row[1].length));
  return rows.map(([name, size, ago]) => `${name.padEnd(nameWidth)}  ${size.padStart(sizeWidth)}  ${ago}\n`).join('');
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
