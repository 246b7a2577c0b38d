import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

/**
 * Compares a reporter's output with test/report/golden/<name>, byte for byte.
 * UPDATE_GOLDEN=1 rewrites the file instead; review its diff before committing it.
 */
export function expectGolden(name: string, actual: string): void {
  const file = new URL(`./golden/${name}`, import.meta.url);
  if (process.env.UPDATE_GOLDEN) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
