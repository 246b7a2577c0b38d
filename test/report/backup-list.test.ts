import { describe, expect, it } from 'vitest';
import { age, backupListText } from '../../src/report/backup-list.js';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const backup = (name: string, size: number, time: string) => ({ name, path: `/s/${name}`, size, mode: 0o644, time: new Date(time) });

describe('restore --list text', () => {
  it('aligns name, size and age in columns, one backup a line, in the order given', () => {
    const text = backupListText(
      [backup('a.jsonl.bak-2026-11-26T09-58-00-000Z', 48213, '2026-11-26T09:58:00.000Z'), backup('a.jsonl.bak-2026-11-20T10-00-00-000Z', 512, '2026-11-20T10:00:00.000Z')],
      NOW,
    );
    expect(text).toBe('a.jsonl.bak-2026-11-26T09-58-00-000Z  48 kB  2 min ago\n' + 'a.jsonl.bak-2026-11-20T10-00-00-000Z  512 B  6 days ago\n');
  });

  it('shows control characters in a name as escapes, so a name cannot forge a line', () => {
    expect(backupListText([backup('a\nb.bak-x', 1, '2026-11-26T10:00:00.000Z')], NOW)).toBe('a\\nb.bak-x  1 B  0 s ago\n');
  });

  it.each([
    [59_999, '59 s ago'],
    [60_000, '1 min ago'],
    [3_599_999, '59 min ago'],
    [3_600_000, '1 h ago'],
    [47 * 3_600_000, '47 h ago'],
    [48 * 3_600_000, '2 days ago'],
    [-1, 'in the future'],
  ])('age of %i ms is "%s"', (ms, text) => {
    expect(age(ms)).toBe(text);
  });
});
