import { describe, expect, it } from 'vitest';
import { maskForJudge } from '../../../src/verify/llm/mask-for-judge.js';
import { maskSecrets } from '../../../src/verify/llm/secrets.js';

interface Shape {
  text: string;
  secrets: string[];
}

// The published catalogue (docs/secrets.md) is shared with harden/secrets.mjs, which runs it through the CLI; a string
// specifier keeps TypeScript from looking for types of a plain .mjs file.
const catalogue: string = '../../../harden/lib/secret-shapes.mjs';
const { SHAPES, leaked } = (await import(catalogue)) as {
  SHAPES: Array<[string, () => Shape]>;
  leaked: (sent: string, secret: string) => boolean;
};
const cases = SHAPES.map(([name, make]) => ({ name, ...make() }));

describe('the published secret shapes', () => {
  it('are at least 40, each with fresh random secrets that the leak check finds before masking', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const shape of cases) for (const secret of shape.secrets) expect(leaked(shape.text, secret), shape.name).toBe(true);
    const again = SHAPES.map(([, make]) => make().secrets.join());
    expect(again.filter((value, i) => value === cases[i]!.secrets.join())).toEqual([]);
  });

  it.each(cases.map((shape) => [shape.name, shape] as const))('%s: our patterns alone leak nothing', (_, shape) => {
    const { text, masked } = maskSecrets(shape.text);
    expect(masked).toBeGreaterThan(0);
    for (const secret of shape.secrets) expect(leaked(text, secret)).toBe(false);
  });

  it('all of them at once through maskForJudge, secretlint included, leak nothing and keep their context', async () => {
    const masked = await maskForJudge(cases.map((shape, i) => `(shape ${i}) ${shape.text}`));
    masked.forEach((text, i) => {
      expect(text.startsWith(`(shape ${i}) `)).toBe(true);
      for (const secret of cases[i]!.secrets) expect(leaked(text, secret), cases[i]!.name).toBe(false);
    });
  });
});
