import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repairRewrite, rewriteInput } from '../../../src/pipeline/rewrite.js';
import { scanFile } from '../../../src/pipeline/scan.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'requests');

/** Each fixture's findings as `line rule pointer`. */
const expected: Record<string, string[]> = {
  'openai-chat-healthy.jsonl': [],
  'anthropic-healthy.jsonl': [],
  'responses-healthy.jsonl': [],
  'gemini-healthy.jsonl': [],
  'openai-chat-broken.jsonl': [
    '2 missing-tool-result /messages/1/tool_calls/1',
    '3 orphan-tool-result /messages/1',
    '4 displaced-tool-result /messages/3',
    '5 duplicate-tool-result /messages/3',
    '6 missing-tool-result /messages/1/tool_calls/0',
  ],
  'anthropic-broken.jsonl': [
    '1 missing-tool-result /messages/1/content/1',
    '2 orphan-tool-result /messages/0/content/0',
    '3 empty-text-block /messages/0/content/0',
    '4 tool-result-not-first /messages/2/content/1',
  ],
  'responses-broken.jsonl': ['1 missing-tool-result /input/1', '2 orphan-tool-result /input/1', '3 displaced-tool-result /input/1'],
  'gemini-broken.jsonl': ['1 missing-tool-result /contents/1/parts/1', '2 orphan-tool-result /contents/1/parts/0', '3 empty-text-block /contents/0/parts/0'],
};

describe('requests: scan', () => {
  for (const [name, findings] of Object.entries(expected)) {
    it(`${name} shows exactly its findings, each at its line and the pointer inside it`, async () => {
      const report = await scanFile(join(DIR, name));
      expect(report.findings.map((f) => `${f.line} ${f.rule} ${f.pointer}`)).toEqual(findings);
    });
  }

  it('names other items of the same line by their pointer, never by a line of the file', async () => {
    const report = await scanFile(join(DIR, 'openai-chat-broken.jsonl'));
    const displaced = report.findings.find((f) => f.rule === 'displaced-tool-result')!;
    expect(displaced.message).toContain('(/messages/1)');
    const duplicate = report.findings.find((f) => f.rule === 'duplicate-tool-result')!;
    expect(duplicate.message).toContain('already answered at /messages/2');
  });

  it('Anthropic and Gemini reject blank text, so an empty text block is an error there', async () => {
    for (const name of ['anthropic-broken.jsonl', 'gemini-broken.jsonl']) {
      const report = await scanFile(join(DIR, name));
      expect(report.findings.find((f) => f.rule === 'empty-text-block')?.severity).toBe('error');
    }
  });
});

describe('requests: lines in no known shape', () => {
  it('are reported, not passed as healthy, and repair leaves them as they are', async () => {
    const text = ['{"messages":[{"role":"user","content":"hi"}]}', '{"prompt":"x","completion":"y"}', '{"messages":null}', ''].join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'td-requests-shapeless-'));
    writeFileSync(join(dir, 'in.jsonl'), text);
    const report = await scanFile(join(dir, 'in.jsonl'));
    expect(report.findings.map((f) => `${f.line} ${f.rule} ${f.severity}`)).toEqual(['2 unknown-request-shape warning', '3 unknown-request-shape warning']);
    const repaired = await rewriteInput(join(dir, 'in.jsonl'), undefined, repairRewrite('discard'), { kind: 'file', path: join(dir, 'out.jsonl') });
    expect(readFileSync(join(dir, 'out.jsonl'), 'utf8')).toBe(text);
    expect(repaired.findings.map((f) => `${f.line} ${f.rule}`)).toEqual(['2 unknown-request-shape', '3 unknown-request-shape']);
  });
});
