import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repairText } from '../helpers/repair-tester.js';
import { scanText } from '../helpers/scan-text.js';

const HEALTHY = readFileSync('fixtures/claude-code/healthy.jsonl', 'utf8').trimEnd().split('\n');
const jsonl = (lines: string[]) => lines.map((line) => `${line}\n`).join('');

/** The healthy session with a response line holding only `text` written before the final answer (line 9). */
function withBlankLine(text: string): string[] {
  const answer = JSON.parse(HEALTHY[8]!);
  const blank = { ...answer, uuid: 'c0de0000-0000-4000-8000-00000000b1a2', message: { ...answer.message, content: [{ type: 'text', text }] } };
  const relinked = HEALTHY[8]!.replace(`"parentUuid":"${answer.parentUuid}"`, `"parentUuid":"${blank.uuid}"`);
  return [...HEALTHY.slice(0, 8), JSON.stringify(blank), relinked];
}

describe('Claude Code: blank text blocks', () => {
  it.each([
    ['', 'text content blocks must be non-empty'],
    [' \n\t', 'text content blocks must contain non-whitespace text'],
  ])('a line of %j is an error with Anthropic\'s own text', async (text, error) => {
    const findings = await scanText(jsonl(withBlankLine(text)));
    expect(findings.map((f) => `${f.line} ${f.rule} ${f.severity}`)).toEqual(['9 empty-text-block error']);
    expect(findings[0]!.providerError).toBe(`Anthropic: messages: ${error}`);
  });

  it.each(['discard', 'synthetic'] as const)('%s: a line with nothing else goes, and the next line hangs where it hung before', async (mode) => {
    const { output } = await repairText(jsonl(withBlankLine('  ')), mode);
    expect(output).toBe(jsonl(HEALTHY));
  });

  it('a blank block beside other content goes on its own', async () => {
    const lines = [...HEALTHY];
    lines[8] = lines[8]!.replace('"content":[{"type":"text"', '"content":[{"type":"text","text":""},{"type":"text"');
    const { output } = await repairText(jsonl(lines));
    expect(output).toBe(jsonl(HEALTHY));
  });
});

describe('Claude Code: a call id used twice', () => {
  it('the later call and its result get a fresh toolu_ id; the session scans clean and stays that way', async () => {
    const lines = HEALTHY.map((line) => line.replaceAll('toolu_01ParallelTwoBBBBBBBBBB', 'toolu_01ParallelOneAAAAAAAAAA'));
    expect((await scanText(jsonl(lines))).map((f) => f.rule)).toEqual(['duplicate-tool-call-id']);
    const { output, lines: out, report } = await repairText(jsonl(lines));
    expect(report.repair.counts.renamedToolCalls).toBe(1);
    const fresh = out[5]!.message.content[0].id;
    expect(fresh).toMatch(/^toolu_[0-9A-Za-z]{23}$/);
    expect(out[7]!.message.content[0].tool_use_id).toBe(fresh);
    expect(out[6]!.message.content[0].tool_use_id).toBe('toolu_01ParallelOneAAAAAAAAAA');
    expect(await scanText(output)).toEqual([]);
    expect((await repairText(output)).report.repair.changed).toBe(false);
  });
});

describe('Claude Code: records glued onto one line', () => {
  it.each(['discard', 'synthetic'] as const)('%s: the glued fixture repairs to the healthy session, byte for byte', async (mode) => {
    const { output } = await repairText(readFileSync('fixtures/claude-code/invalid-json.jsonl'), mode);
    expect(output).toBe(jsonl(HEALTHY));
  });
});
