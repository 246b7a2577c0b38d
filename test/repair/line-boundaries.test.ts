import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mutate } from '../../harden/lib/mutations.mjs';
import { repairBytes, repairText } from '../helpers/repair-tester.js';
import { scanText } from '../helpers/scan-text.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
/** A healthy sample of each format, and the field that links a record to its parent (none: file order). */
const SAMPLES: Array<{ format: string; file: string; parent?: string }> = [
  { format: 'pi', file: 'pi/healthy.jsonl', parent: 'parentId' },
  { format: 'claude-code', file: 'claude-code/healthy.jsonl', parent: 'parentUuid' },
  { format: 'codex', file: 'codex/healthy.jsonl' },
  { format: 'requests', file: 'requests/openai-chat-healthy.jsonl' },
  { format: 'requests', file: 'requests/anthropic-healthy.jsonl' },
];

function linesOf(file: string): string[] {
  return readFileSync(join(FIXTURES, file), 'utf8').split('\n').slice(0, -1);
}

/** The same record, or the same but for its parent link (its parent was the torn record, so repair re-links it). */
function sameRecord(written: string | undefined, original: string, parent: string | undefined): boolean {
  if (written === original) return true;
  if (written === undefined || written === '' || parent === undefined) return false;
  const { [parent]: _a, ...left } = JSON.parse(written);
  const { [parent]: _b, ...right } = JSON.parse(original);
  return JSON.stringify(left) === JSON.stringify(right);
}

/** The record is a tool result answering a call that `torn` holds. */
function answersCallIn(record: string, torn: string): boolean {
  const ids = [...record.matchAll(/"(?:toolCallId|tool_use_id|call_id|tool_call_id)":"([^"]+)"/g)].map((match) => match[1]!);
  return ids.some((id) => torn.includes(`"${id}"`));
}

describe('a torn append with the next append written onto it', () => {
  for (const { format, file, parent } of SAMPLES) {
    it(`${file}: every whole record after the tear comes back, in place (${format})`, async () => {
      const lines = linesOf(file);
      const lost: string[] = [];
      let cases = 0;
      for (let torn = 1; torn + 1 < lines.length; torn++) {
        const line = lines[torn]!;
        for (const cut of [1, 17, Math.floor(line.length / 2), line.length - 1]) {
          cases += 1;
          const damaged = [...lines.slice(0, torn), line.slice(0, cut) + lines[torn + 1]!, ...lines.slice(torn + 2)];
          // Synthetic results: a call whose result was torn keeps its turn, and the calls beside it their results.
          const { output, report } = await repairText(damaged.map((l) => `${l}\n`).join(''), 'synthetic');
          const written = output.split('\n');
          const found = written.find((l) => sameRecord(l, lines[torn + 1]!, parent));
          // A result whose call was in the torn record is read back, then goes as an orphan: no provider takes it alone.
          const orphaned = answersCallIn(lines[torn + 1]!, line) && report.repair.counts.droppedOrphans > 0;
          if (found === undefined && !orphaned) lost.push(`line ${torn + 2} after a tear at ${cut}`);
          expect(report.findings.filter((f) => f.rule === 'invalid-json')).toEqual([]);
          expect((await repairText(output, 'synthetic')).report.repair.changed).toBe(false);
        }
      }
      expect(cases).toBeGreaterThan(3);
      expect(lost).toEqual([]);
    });
  }

  it('scan names the line and says what repair keeps', async () => {
    const lines = linesOf('pi/healthy.jsonl');
    const damaged = [...lines.slice(0, 3), lines[3]!.slice(0, 40) + lines[4]!, ...lines.slice(5)];
    const findings = await scanText(damaged.map((l) => `${l}\n`).join(''));
    const found = findings.find((f) => f.rule === 'invalid-json');
    expect(found?.line).toBe(4);
    expect(found?.message).toContain('1 complete record after a torn one that repair drops');
  });

  it('two whole records after a tear both come back', async () => {
    const lines = linesOf('codex/healthy.jsonl');
    const damaged = [...lines.slice(0, 2), lines[2]!.slice(0, 30) + lines[3]! + lines[4]!, ...lines.slice(5)];
    const { output } = await repairText(damaged.map((l) => `${l}\n`).join(''));
    expect(output).toBe([...lines.slice(0, 2), ...lines.slice(3)].map((l) => `${l}\n`).join(''));
  });
});

/** `record` with a raw line break written in place of each `\n` escape inside its strings. */
function breakStrings(record: string, eol = '\n'): string {
  return record.replaceAll('\\n', eol);
}

describe('one record written over several lines', () => {
  it('a string cut by raw line breaks is joined back with them escaped, byte for byte (pi)', async () => {
    const lines = linesOf('pi/healthy.jsonl');
    const value = JSON.parse(lines[4]!);
    const record = JSON.stringify({ ...value, note: 'first\nsecond\n\nfourth {"type":"message"}\n' });
    const damaged = [...lines.slice(0, 4), breakStrings(record), ...lines.slice(5)];
    const input = damaged.map((l) => `${l}\n`).join('');
    const findings = await scanText(input);
    expect(findings.map((f) => `${f.line} ${f.rule}`)).toEqual(['5 invalid-json']);
    expect(findings[0]!.message).toContain('across 5 lines, cut by raw line breaks inside a string');
    const { output, report } = await repairText(input);
    expect(output).toBe([...lines.slice(0, 4), record, ...lines.slice(5)].map((l) => `${l}\n`).join(''));
    expect(report.repair.counts.joinedRecords).toBe(1);
  });

  it('CRLF breaks inside a string come back as \\r\\n (Claude Code, CRLF file)', async () => {
    const lines = linesOf('claude-code/healthy.jsonl');
    const record = JSON.stringify({ ...JSON.parse(lines[2]!), toolUseResult: 'a\r\nb' });
    const damaged = [...lines.slice(0, 2), breakStrings(record.replace('\\r\\n', '\\n'), '\r\n'), ...lines.slice(3)];
    const { output } = await repairText(damaged.map((l) => `${l}\r\n`).join(''));
    expect(output.split('\r\n')[2]).toBe(record);
  });

  it('a record cut at the end of the file is joined too (Codex)', async () => {
    const lines = linesOf('codex/healthy.jsonl');
    const record = JSON.stringify({ ...JSON.parse(lines.at(-1)!), note: 'x\ny' });
    const { output } = await repairText([...lines.slice(0, -1), breakStrings(record)].map((l) => `${l}\n`).join(''));
    expect(output).toBe([...lines.slice(0, -1), record].map((l) => `${l}\n`).join(''));
  });

  it('a pretty-printed conversation in a request file is joined onto one line, never cut into invented records', async () => {
    const lines = linesOf('requests/openai-chat-healthy.jsonl');
    const value = JSON.parse(lines[0]!);
    const input = `${JSON.stringify(value, null, 2)}\n${lines.slice(1).join('\n')}\n`;
    const { output, report } = await repairText(input);
    const written = output.split('\n').slice(0, -1);
    expect(written).toHaveLength(lines.length);
    expect(JSON.parse(written[0]!)).toEqual(value);
    expect(written.slice(1)).toEqual(lines.slice(1));
    expect(written).not.toContain('{}');
    expect(report.repair.counts.joinedRecords).toBe(1);
  });

  it('a torn line before a cut record: the torn one goes, the cut one is joined', async () => {
    const lines = linesOf('pi/healthy.jsonl');
    const record = JSON.stringify({ ...JSON.parse(lines[5]!), note: 'a\nb' });
    const damaged = [...lines.slice(0, 4), lines[4]!.slice(0, 50), breakStrings(record), ...lines.slice(6)];
    const { output } = await repairText(damaged.map((l) => `${l}\n`).join(''));
    expect(output.split('\n').some((line) => sameRecord(line, record, 'parentId'))).toBe(true);
    expect(output).not.toContain(lines[4]!.slice(0, 50) + '\n');
  });

  it('lines that do not close a record stay broken lines, each on its own', async () => {
    const lines = linesOf('pi/healthy.jsonl');
    const damaged = [...lines.slice(0, 4), '{"type":"message","note":"never closed', 'plain words', ...lines.slice(4)];
    const findings = await scanText(damaged.map((l) => `${l}\n`).join(''));
    expect(findings.filter((f) => f.rule === 'invalid-json').map((f) => f.line)).toEqual([5, 6]);
  });

  it('a raw U+2028 or U+2029 inside a string is valid JSON: kept byte for byte, nothing reported', async () => {
    const lines = linesOf('pi/healthy.jsonl');
    const record = JSON.stringify({ ...JSON.parse(lines[4]!), note: 'a\u2028b\u2029c' });
    const input = [...lines.slice(0, 4), record, ...lines.slice(5)].map((l) => `${l}\n`).join('');
    expect(await scanText(input)).toEqual([]);
    expect((await repairText(input)).report.repair.changed).toBe(false);
  });
});

describe('the line-boundary mutators, across formats', () => {
  const files = SAMPLES.map((sample) => join(FIXTURES, sample.file));
  for (const mutation of ['tear-and-glue', 'break-in-string']) {
    it(`${mutation}: repair keeps every line the damage did not touch, leaves no error and reaches a fixed point`, async () => {
      const problems: string[] = [];
      for (let seed = 1; seed <= 40; seed++) {
        const file = files[seed % files.length]!;
        const original = readFileSync(file);
        const { bytes } = mutateWith(original, mutation, seed);
        const { output, report } = await repairBytes(bytes);
        const label = `${file.split('/').slice(-2).join('/')} seed ${seed}`;
        const errors = report.findings.filter((f) => f.severity === 'error');
        if (errors.length > 0) problems.push(`${label}: ${errors.map((f) => `${f.line}:${f.rule}`).join(' ')}`);
        if ((await repairBytes(output)).report.repair.changed) problems.push(`${label}: not idempotent`);
        // A break inside a string loses nothing: the repair is the original file with that break escaped.
        const escapes = (text: Buffer) => text.toString('utf8').replaceAll('\\n', '');
        if (mutation === 'break-in-string' && escapes(output) !== escapes(original)) problems.push(`${label}: not the original`);
      }
      expect(problems).toEqual([]);
    });
  }
});

/** One named mutation, seeded: `mutate` picks among all, so retry seeds until it picks this one. */
function mutateWith(bytes: Buffer, name: string, seed: number): { bytes: Buffer } {
  for (let next = seed * 1000; ; next++) {
    const result = mutate(bytes, next, 1);
    if (result.done[0] === name) return result;
  }
}
