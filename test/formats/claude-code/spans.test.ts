import { describe, expect, it } from 'vitest';
import { claudeCodeEncoder } from '../../../src/formats/claude-code/encode.js';
import type { EntryEdit } from '../../../src/model/edits.js';

const spliced = (line: string, edits: EntryEdit[]): string | undefined => {
  const bytes = Buffer.from(line, 'utf8');
  const splices = claudeCodeEncoder.spans!(bytes, edits);
  if (splices === undefined) return undefined;
  let at = 0;
  const pieces: Buffer[] = [];
  for (const s of splices) {
    pieces.push(bytes.subarray(at, s.start), Buffer.from(s.text, 'utf8'));
    at = s.end;
  }
  pieces.push(bytes.subarray(at));
  return Buffer.concat(pieces).toString('utf8');
};

const applied = (line: string, edits: EntryEdit[]): unknown => {
  const value = JSON.parse(line) as unknown;
  claudeCodeEncoder.apply(value, edits);
  return value;
};

const text = `${'é'.repeat(30)}\\n\\u00e9\\/${'x'.repeat(40)}😀${'y'.repeat(30)}`;
const LINE = `{"parentUuid":"p-1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":[{"type":"text","text":"${text}"}]}]},"toolUseResult":{"stdout":"${text}","n":1.50},"uuid":"u-1"}`;

describe('Claude Code edits as splices of the line (Encoder.spans)', () => {
  it('relinks and trims as apply does, every other byte as it was', () => {
    const edits: EntryEdit[] = [
      { kind: 'set-parent', parentId: 'p-0' },
      { kind: 'trim-text', pointer: '/message/content/0/content/0/text', head: 10, tail: 31, stub: '\n[… cut "x" …]\n' },
    ];
    const out = spliced(LINE, edits)!;
    expect(JSON.parse(out)).toEqual(applied(LINE, edits));
    // The tail's escapes and the copy for the screen keep their spelling (1.50 too).
    expect(out.endsWith(`"toolUseResult":{"stdout":"${text}","n":1.50},"uuid":"u-1"}`)).toBe(true);
    expect(out.startsWith('{"parentUuid":"p-0","isSidechain":false,')).toBe(true);
    expect(out).toContain('\\n[… cut \\"x\\" …]\\n');
  });

  it('writes a root as null', () => {
    expect(spliced(LINE, [{ kind: 'set-parent', parentId: null }])).toBe(LINE.replace('"p-1"', 'null'));
  });

  it('leaves other edits, and lines it cannot place an edit in, to apply', () => {
    expect(spliced(LINE, [{ kind: 'drop-blocks', blocks: [0] }])).toBeUndefined();
    expect(spliced('{"parentUuid":"a","parentUuid":"b","uuid":"u"}', [{ kind: 'set-parent', parentId: 'c' }])).toBeUndefined();
    expect(spliced('{"uuid":"u"}', [{ kind: 'set-parent', parentId: 'c' }])).toBeUndefined();
  });
});
