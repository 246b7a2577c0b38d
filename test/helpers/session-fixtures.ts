import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');

/** Every bundled session fixture (JSONL, request files left out), by full path, in a stable order. */
export function sessionFixtures(): string[] {
  return readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl') && !name.startsWith('requests'))
    .sort()
    .map((name) => join(FIXTURES, name));
}
