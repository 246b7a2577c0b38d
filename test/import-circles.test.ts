import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCircles } from '../scripts/import-circles.mjs';

const SRC = join(import.meta.dirname, '..', 'src');

describe('import circles', () => {
  it('src/ has none, type-only imports counted', () => {
    expect(importCircles(SRC)).toEqual([]);
  });

  describe('the checker', () => {
    const root = mkdtempSync(join(tmpdir(), 'td-circles-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const tree = (name: string, files: Record<string, string>): string => {
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, name, file)), { recursive: true });
        writeFileSync(join(root, name, file), text);
      }
      return join(root, name);
    };

    it('finds a circle through a type-only import, a re-export and a dynamic import, and only at runtime the one Node loads', () => {
      const folder = tree('mixed', {
        'a.ts': "import type { B } from './b.js';\nexport const a = (b: B) => b;\n",
        'b.ts': "export * from './c/c.js';\nexport type B = number;\n",
        'c/c.ts': "export const c = async () => (await import('../a.js')).a;\n",
        'd.ts': "import { e } from './e.js';\nexport const d = e;\n",
        'e.ts': "import { d } from './d.js';\nexport const e = () => d;\n",
        'alone.ts': "import { a } from './a.js';\nimport fs from 'node:fs';\nexport const alone = [a, fs];\n",
      });
      expect(importCircles(folder)).toEqual([['a.ts', 'b.ts', 'c/c.ts'], ['d.ts', 'e.ts']]);
      expect(importCircles(folder, { types: false })).toEqual([['d.ts', 'e.ts']]);
    });

    it('finds a file that imports itself and passes a tree without circles', () => {
      expect(importCircles(tree('self', { 'a.ts': "import './a.js';\n" }))).toEqual([['a.ts']]);
      expect(importCircles(tree('line', { 'a.ts': "import './b.js';\n", 'b.ts': "import './c.js';\n", 'c.ts': 'export {};\n' }))).toEqual([]);
    });
  });
});
