import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pieces } from '../../src/io/glued-records.js';
import { repairText } from '../helpers/repair-tester.js';
import { scanText } from '../helpers/scan-text.js';
import { Session } from '../helpers/session.js';

/** A session whose lines i and i+1 lost the newline between them. */
function glued(session: Session, ...at: number[]): string {
  const lines = [...session.lines];
  for (const i of [...at].sort((a, b) => b - a)) lines.splice(i, 2, lines[i]! + lines[i + 1]!);
  return lines.map((line) => `${line}\n`).join('');
}

describe('repair: records glued onto one line', () => {
  const session = () => new Session().user('one').reply('two').user('three').reply('four').user('five').reply('six');

  it('scan names the glued line, and the entries on it take part in the tree', async () => {
    const findings = await scanText(glued(session(), 2));
    expect(findings.map((f) => `${f.line} ${f.rule}`)).toEqual(['3 invalid-json']);
    expect(findings[0]!.message).toContain('2 records are glued together on one line');
  });

  it.each([[[2]], [[1, 4]], [[2, 3]]])('puts every record back on its own line, byte for byte (glued at %j)', async (at) => {
    const whole = session();
    const { output, report } = await repairText(glued(whole, ...at));
    expect(output).toBe(whole.jsonl());
    expect(report.findings).toEqual([]);
    expect((await repairText(output)).report.repair.changed).toBe(false);
  });

  it('keeps three records glued together', async () => {
    const whole = session();
    const lines = [...whole.lines];
    lines.splice(2, 3, lines[2]! + lines[3]! + lines[4]!);
    expect((await repairText(lines.map((l) => `${l}\n`).join(''))).output).toBe(whole.jsonl());
  });

  it('drops only the piece that cannot be read', async () => {
    const whole = session();
    const lines = [...whole.lines];
    lines[3] = `${lines[3]}{"type":"message","id":"torn`;
    const { output, report } = await repairText(lines.map((l) => `${l}\n`).join(''));
    expect(output).toBe(whole.jsonl());
    expect(report.repair.counts.splitLines).toBe(1);
  });

  it('drops a copy of an entry glued onto the entry itself (a retried append)', async () => {
    const whole = session();
    const lines = [...whole.lines];
    lines[3] = `${lines[3]}${lines[3]!.replace(/"timestamp":"[^"]*"/, '"timestamp":"2026-03-03T00:00:00.000Z"')}`;
    const { output, report } = await repairText(lines.map((l) => `${l}\n`).join(''));
    expect(await scanText(output)).toEqual([]);
    expect(report.repair.counts).toMatchObject({ splitLines: 1, droppedDuplicates: 1 });
    expect(output.split('\n').filter((l) => l.includes('"three"'))).toHaveLength(1);
  });

  it('the fixture: the cache-ttl entry and the prompt glued on line 12 both come back', async () => {
    const input = readFileSync('fixtures/pi/invalid-json.jsonl', 'utf8');
    const { output, lines } = await repairText(input);
    expect(await scanText(output)).toEqual([]);
    expect(lines.map((l) => l.id)).toEqual(expect.arrayContaining(['88f3fec3', 'cd66945b']));
    expect(output.split('\n').length).toBe(input.split('\n').length + 1);
  });
});

describe('pieces', () => {
  const cut = (text: string) => pieces(Buffer.from(text)).map((p) => `${p.record ? 'R' : 'x'}:${text.slice(p.start, p.end)}`);

  it('cuts at the end of each top-level value, outside strings', () => {
    expect(cut('{"a":"}{"}{"b":["]",{}]} ')).toEqual(['R:{"a":"}{"}', 'R:{"b":["]",{}]}']);
    expect(cut('{"a":"\\"}"}[1]')).toEqual(['R:{"a":"\\"}"}', 'R:[1]']);
  });

  it('keeps what is between values as a piece of its own', () => {
    expect(cut('{"a":1}junk {"b":2}')).toEqual(['R:{"a":1}', 'x:junk', 'R:{"b":2}']);
    expect(cut('\u0000\u0000{"a":1}')).toEqual(['x:\u0000\u0000', 'R:{"a":1}']);
  });

  it('leaves an unclosed value as one piece to the end', () => {
    expect(cut('{"a":{"b":1}')).toEqual(['R:{"a":{"b":1}']);
  });
});
