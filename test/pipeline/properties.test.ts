import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/pipeline/scan.js';
import { call, Session } from '../helpers/session.js';
import { scanText } from '../helpers/scan-text.js';

/** A healthy session: turns of a user message, some tool rounds answered in call order, a reply. */
const turns = fc.array(fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 3 }), { minLength: 1, maxLength: 6 });

function build(shape: number[][]): { session: Session; resultLines: number[] } {
  const session = new Session();
  const resultLines: number[] = [];
  let n = 0;
  for (const rounds of shape) {
    session.user('next task');
    for (const calls of rounds) {
      const ids = Array.from({ length: calls }, () => `toolu_${(n++).toString().padStart(4, '0')}`);
      session.calls(...ids.map((id) => call(id)));
      for (const id of ids) {
        session.result(id);
        resultLines.push(session.lines.length);
      }
    }
    session.reply();
  }
  return { session, resultLines };
}

describe('scan properties', () => {
  it('finds nothing in any healthy session', async () => {
    await fc.assert(
      fc.asyncProperty(turns, async (shape) => {
        expect(await scanText(build(shape).session.jsonl())).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('finds exactly one missing result when one result line is removed', async () => {
    await fc.assert(
      fc.asyncProperty(
        turns.filter((shape) => shape.some((rounds) => rounds.length > 0)),
        fc.nat(),
        async (shape, pick) => {
          const { session, resultLines } = build(shape);
          const drop = resultLines[pick % resultLines.length]!;
          // Re-link the entry after the dropped one so only pairing changes, not the tree.
          const lines = session.lines.map((line) => JSON.parse(line));
          const next = lines[drop];
          if (next !== undefined) next.parentId = lines[drop - 1].parentId;
          const jsonl = lines.filter((_, i) => i !== drop - 1).map((line) => JSON.stringify(line) + '\n').join('');
          const findings = await scanText(jsonl);
          expect(findings.map((f) => f.rule)).toEqual(['missing-tool-result']);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('never throws on arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => {
        const report = await scanSource('x', Readable.from([Buffer.from(bytes)]));
        for (const finding of report.findings) expect(finding.line).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
