import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/model/analysis.js';
import { loadTranscript } from '../../src/pipeline/load-transcript.js';
import { blankUserMessage } from '../../src/rules/content/blank-user-message.js';
import { missingToolResult } from '../../src/rules/pairing/missing-tool-result.js';
import { jsonReporter } from '../../src/report/json.js';
import { parseJsonReport, fileReportsOf } from '../../src/report/read-json.js';
import { stylishReporter } from '../../src/report/stylish.js';
import { repairText } from '../helpers/repair-tester.js';
import { findingsOf, testRule } from '../helpers/rule-tester.js';
import { rules } from '../../src/rules/index.js';

type Json = Record<string, unknown>;

/** One Claude Code line: a message in the uuid / parentUuid tree. */
function cc(uuid: string, parent: string | null, role: 'user' | 'assistant', content: unknown, stop?: string): Json {
  const message: Json = { role, content };
  if (role === 'assistant') Object.assign(message, { id: `msg_${uuid}`, model: 'claude-sonnet-4-5', stop_reason: stop ?? 'end_turn' });
  return { parentUuid: parent, isSidechain: false, type: role, message, uuid, timestamp: '2026-06-10T09:00:00.000Z', sessionId: 'a1b2c3d4-0000-4000-8000-000000000001' };
}

const use = (id: string, name = 'Read') => [{ type: 'tool_use', id, name, input: { path: 'a.txt' } }];
const result = (id: string, text = 'hello') => [{ type: 'tool_result', tool_use_id: id, content: text }];
const jsonl = (lines: Json[]) => lines.map((value) => JSON.stringify(value)).join('\n') + '\n';

const opening = [cc('u1', null, 'user', 'list the files'), cc('a1', 'u1', 'assistant', [{ type: 'text', text: 'One file.' }])];

testRule(blankUserMessage, {
  valid: [{ name: 'a prompt with text', jsonl: jsonl([...opening, cc('u2', 'a1', 'user', 'read it')]) }],
  invalid: [
    {
      name: 'a prompt of whitespace is a blank text block Anthropic refuses',
      jsonl: jsonl([...opening, cc('u2', 'a1', 'user', '  \n\t')]),
      findings: [{ line: 3, severity: 'error', message: 'User message is only whitespace; its provider refuses a blank text block.', providerError: 'Anthropic: messages: text content blocks must contain non-whitespace text' }],
    },
    {
      name: 'a prompt of whitespace text blocks',
      jsonl: jsonl([...opening, cc('u2', 'a1', 'user', [{ type: 'text', text: ' ' }])]),
      findings: [{ line: 3, severity: 'error', providerError: /must contain non-whitespace text/ }],
    },
    {
      name: 'an empty prompt',
      jsonl: jsonl([...opening, cc('u2', 'a1', 'user', '')]),
      findings: [{ line: 3, severity: 'error', message: /is empty/, providerError: 'Anthropic: messages: text content blocks must be non-empty' }],
    },
  ],
});

/**
 * The last line reuses the uuid of the first one. Claude Code keeps the first entry of a uuid, so
 * the copy is not in its conversation: it resumes from the call on the line before, unanswered.
 */
const dupLeaf = [...opening, cc('u2', 'a1', 'user', 'read it'), cc('a2', 'u2', 'assistant', use('toolu_01BBB'), 'tool_use'), cc('u1', 'a2', 'user', result('toolu_01BBB'))];

testRule(missingToolResult, {
  valid: [{ name: 'the same session with its own uuid on the last line', jsonl: jsonl([...dupLeaf.slice(0, 4), { ...dupLeaf[4]!, uuid: 'r2' }]) }],
  invalid: [
    {
      name: 'a last line that reuses an earlier uuid: the call before it is where Claude Code resumes',
      jsonl: jsonl(dupLeaf),
      findings: [{ line: 4, severity: 'error', message: /`Read` call toolu_01BBB has no tool result/ }],
    },
  ],
});

describe('Claude Code: a later copy of a uuid', () => {
  it('resolves the replayed path the way Claude Code does: it ends at the last line it keeps', async () => {
    const analysis = analyze(await loadTranscript(Readable.from([Buffer.from(jsonl(dupLeaf))])));
    expect(analysis.tree.replayPath.map((i) => analysis.entries.at(i).line)).toEqual([1, 2, 3, 4]);
    expect(analysis.status(4)).toBe('abandoned');
  });

  for (const mode of ['discard', 'synthetic'] as const) {
    it(`${mode}: repair leaves the path Claude Code resumes clean, and a second run changes nothing`, async () => {
      const once = await repairText(jsonl(dupLeaf), mode);
      expect(once.report.findings.filter((f) => f.severity === 'error')).toEqual([]);
      expect(once.report.findings.map((f) => f.rule)).toEqual(['duplicate-entry-id']);
      const kept = once.lines.filter((value, i) => once.lines.findIndex((other) => other.uuid === value.uuid) === i);
      const last = kept.at(-1)!;
      if (mode === 'discard') expect(kept.some((value) => JSON.stringify(value).includes('toolu_01BBB'))).toBe(false);
      else expect(last.message.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01BBB' });
      expect((await repairText(once.output, mode)).output).toBe(once.output);
    });
  }
});

describe('findings the client heals on resume', () => {
  const orphanFirst = [...opening, cc('u2', 'a1', 'user', [{ type: 'text', text: 'see:' }, ...result('toolu_01ZZZ')])];

  it('keep their grade and say which client heals them, from which version; others say nothing', async () => {
    const found = await findingsOf(missingToolResult, jsonl(dupLeaf));
    expect(found[0]).toMatchObject({ severity: 'error', healedBy: { client: 'Claude Code', since: '2.1.328', how: expect.stringMatching(/adds an error result/) } });
    const all = await findingsOf(rules.find((rule) => rule.meta.id === 'duplicate-entry-id')!, jsonl(dupLeaf));
    expect(all[0]!.healedBy).toBeUndefined();
    expect((await findingsOf(rules.find((rule) => rule.meta.id === 'tool-result-not-first')!, jsonl(orphanFirst)))[0]?.healedBy?.how).toMatch(/moves tool results ahead/);
  });

  it('are shown in one line by the stylish reporter and carried through a JSON report read back', async () => {
    const findings = await findingsOf(missingToolResult, jsonl(dupLeaf));
    const reports = [{ path: 's.jsonl', format: 'claude-code', findings }];
    const text = stylishReporter(reports, { color: false });
    expect(text).toContain('healed on resume by Claude Code 2.1.328+ (adds an error result ("[Tool call interrupted: …]") for the unanswered call); other readers still meet it');
    const read = parseJsonReport(jsonReporter(reports, { color: false }));
    if (typeof read === 'string') throw new Error(read);
    expect(fileReportsOf(read)[0]!.findings[0]!.healedBy).toEqual(findings[0]!.healedBy);
  });
});
