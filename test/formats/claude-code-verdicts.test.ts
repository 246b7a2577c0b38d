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
import { unansweredFinalTurn } from '../../src/rules/structure/unanswered-final-turn.js';

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
 * The last line reuses the uuid of an earlier line. Claude Code resolves a uuid to one line only:
 * given a final answer that reused the uuid of the tool call before it, 2.1.328 resumed with the
 * prompt followed straight by that answer, the call and its result gone.
 */
const dupLeaf = [...opening, cc('u2', 'a1', 'user', 'read it'), cc('a2', 'u2', 'assistant', use('toolu_01BBB'), 'tool_use'), cc('r2', 'a2', 'user', result('toolu_01BBB')), cc('a2', 'r2', 'assistant', [{ type: 'text', text: 'It says hello.' }])];

const duplicateEntryId = rules.find((rule) => rule.meta.id === 'duplicate-entry-id')!;

testRule(duplicateEntryId, {
  valid: [{ name: 'the same session with its own uuid on the last line', jsonl: jsonl([...dupLeaf.slice(0, 5), { ...dupLeaf[5]!, uuid: 'a3' }]) }],
  invalid: [
    {
      name: 'a last line that reuses the uuid of the call before it',
      jsonl: jsonl(dupLeaf),
      findings: [{ line: 6, severity: 'error', message: 'Entry id a2 is already used on line 4; the agent resolves it to one of the two lines, so the conversation it resumes loses the other and what hangs on it.' }],
    },
  ],
});

describe('Claude Code: a later line that reuses a uuid', () => {
  for (const mode of ['discard', 'synthetic'] as const) {
    it(`${mode}: repair gives the later line a uuid of its own, so the whole conversation resumes, and a second run changes nothing`, async () => {
      const text = jsonl(dupLeaf);
      const once = await repairText(text, mode);
      expect(once.report.findings).toEqual([]);
      expect(once.lines.map((value) => value.uuid)).toEqual(['u1', 'a1', 'u2', 'a2', 'r2', expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/)]);
      expect(once.lines[5]).toEqual({ ...dupLeaf[5], uuid: once.lines[5]!.uuid });
      expect(once.output.split('\n').slice(0, 5)).toEqual(text.split('\n').slice(0, 5));
      const analysis = analyze(await loadTranscript(Readable.from([Buffer.from(once.output)])));
      expect(analysis.tree.replayPath.map((i) => analysis.entries.at(i).line)).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await repairText(once.output, mode)).output).toBe(once.output);
    });
  }

  it('leaves a copy that a later line hangs on, and a line written twice, as they are', async () => {
    const hungOn = jsonl([...dupLeaf, cc('u3', 'a2', 'user', 'thanks')]);
    expect((await repairText(hungOn)).report.findings.map((f) => `${f.line} ${f.rule}`)).toEqual(['6 duplicate-entry-id']);
    const twice = jsonl([...opening, cc('u2', 'a1', 'user', 'read it'), cc('a2', 'u2', 'assistant', [{ type: 'text', text: 'Done.' }]), cc('u3', 'a2', 'user', 'thanks'), cc('a2', 'u2', 'assistant', [{ type: 'text', text: 'Done.' }])]);
    const once = await repairText(twice);
    // Claude Code resumes past the copy, from the prompt that hangs on its uuid (tried: it answered
    // "thanks" itself), so the turn it would add closes that prompt, on the line after it.
    expect(once.lines.map((value) => value.uuid)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', expect.any(String), 'a2']);
    expect(once.lines[5]).toMatchObject({ parentUuid: 'u3', type: 'assistant', message: { content: [{ type: 'text', text: 'No response requested.' }] } });
  });
});

/**
 * Two parallel calls of one response, each on its own line (same message.id), the second a child
 * of the first; only the first was answered before the kill. Claude Code merges the lines of one
 * message id, so the second call is sent too, unanswered.
 */
const parallel = [
  ...opening,
  cc('u2', 'a1', 'user', 'read both'),
  { ...cc('a2', 'u2', 'assistant', use('toolu_01AAA'), 'tool_use'), message: { ...(cc('a2', 'u2', 'assistant', use('toolu_01AAA'), 'tool_use').message as Json), id: 'msg_pair' } },
  { ...cc('a3', 'a2', 'assistant', use('toolu_01BBB'), 'tool_use'), message: { ...(cc('a3', 'a2', 'assistant', use('toolu_01BBB'), 'tool_use').message as Json), id: 'msg_pair' } },
  cc('r2', 'a2', 'user', result('toolu_01AAA')),
];

describe('Claude Code: the lines of one response beside the path', () => {
  it('are replayed as part of the message, so the call the kill left unanswered is an error', async () => {
    const found = await findingsOf(missingToolResult, jsonl(parallel));
    expect(found.map((f) => `${f.line} ${f.severity}`)).toEqual(['5 error']);
    expect(found[0]!.message).toMatch(/toolu_01BBB has no tool result/);
  });

  for (const mode of ['discard', 'synthetic'] as const) {
    it(`${mode}: repair leaves every call of the message answered`, async () => {
      const once = await repairText(jsonl(parallel), mode);
      expect(once.report.findings).toEqual([]);
      const text = once.output;
      expect(text.includes('toolu_01BBB')).toBe(mode === 'synthetic');
      expect((await repairText(text, mode)).output).toBe(text);
    });
  }
});

describe('Claude Code: a parent that names no line', () => {
  it('is bridged to the line before, as Claude Code resumes it: the history across the gap is replayed and judged', async () => {
    const gap = [...opening, cc('u2', 'a1', 'user', 'read it'), cc('a2', 'u2', 'assistant', use('toolu_01BBB'), 'tool_use'), cc('u3', 'lost-line', 'user', 'and then?'), cc('a3', 'u3', 'assistant', [{ type: 'text', text: 'Done.' }])];
    const analysis = analyze(await loadTranscript(Readable.from([Buffer.from(jsonl(gap))])));
    expect(analysis.tree.replayPath.map((i) => analysis.entries.at(i).line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await findingsOf(missingToolResult, jsonl(gap))).map((f) => `${f.line} ${f.severity}`)).toEqual(['4 error']);
    const unknownParent = rules.find((rule) => rule.meta.id === 'unknown-parent')!;
    expect((await findingsOf(unknownParent, jsonl(gap)))[0]).toMatchObject({ line: 5, healedBy: { client: 'Claude Code', how: 'bridges the missing parent to the line before' } });
  });
});

/** The record Claude Code writes itself after a turn nobody answered. */
const noResponse = (uuid: string, parent: string) => ({ ...cc(uuid, parent, 'assistant', [{ type: 'text', text: 'No response requested.' }], 'stop_sequence'), message: { id: uuid, model: '<synthetic>', role: 'assistant', stop_reason: 'stop_sequence', stop_sequence: '', type: 'message', content: [{ type: 'text', text: 'No response requested.' }] } });

testRule(unansweredFinalTurn, {
  valid: [
    { name: 'a conversation that ends on an answer', jsonl: jsonl(opening) },
    { name: "one that ends on Claude Code's own answer to a turn nobody answered", jsonl: jsonl([...opening, cc('u2', 'a1', 'user', 'and?'), noResponse('n1', 'u2')]) },
  ],
  invalid: [
    {
      name: 'a prompt the answer never came for',
      jsonl: jsonl([...opening, cc('u2', 'a1', 'user', 'Explain the project in detail.')]),
      findings: [{ line: 3, severity: 'info', message: 'The conversation ends on a user turn nobody answered; the agent answers it itself with an assistant turn of its own when it resumes.' }],
    },
    {
      name: 'tool results the model never saw',
      jsonl: jsonl([...opening, cc('u2', 'a1', 'user', 'read it'), cc('a2', 'u2', 'assistant', use('toolu_01AAA'), 'tool_use'), cc('r2', 'a2', 'user', result('toolu_01AAA'))]),
      findings: [{ line: 5, severity: 'info' }],
    },
  ],
});

describe('Claude Code: a conversation that ends on a turn nobody answered', () => {
  for (const mode of ['discard', 'synthetic'] as const) {
    it(`${mode}: repair writes the answer Claude Code would add, after the call it answered or dropped, and a second run changes nothing`, async () => {
      const killed = [...opening, cc('u2', 'a1', 'user', 'read it'), cc('a2', 'u2', 'assistant', use('toolu_01AAA'), 'tool_use')];
      const once = await repairText(jsonl(killed), mode);
      expect(once.report.findings).toEqual([]);
      const last = once.lines.at(-1)!;
      expect(last.message).toMatchObject({ model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: 'No response requested.' }] });
      expect(last.parentUuid).toBe(once.lines.at(-2)!.uuid);
      expect(last.sessionId).toBe(killed[0]!.sessionId);
      expect((await repairText(once.output, mode)).output).toBe(once.output);
    });
  }
});

describe('findings the client heals on resume', () => {
  const orphanFirst = [...opening, cc('u2', 'a1', 'user', [{ type: 'text', text: 'see:' }, ...result('toolu_01ZZZ')])];
  const unanswered = [...opening, cc('u2', 'a1', 'user', 'read it'), cc('a2', 'u2', 'assistant', use('toolu_01BBB'), 'tool_use')];

  it('keep their grade and say which client heals them, from which version; others say nothing', async () => {
    const blank = await findingsOf(blankUserMessage, jsonl([...opening, cc('u2', 'a1', 'user', '  ')]));
    expect(blank[0]).toMatchObject({ severity: 'error', healedBy: { client: 'Claude Code', how: 'drops the blank prompt' } });
    const found = await findingsOf(missingToolResult, jsonl(unanswered));
    expect(found[0]).toMatchObject({ severity: 'error', healedBy: { client: 'Claude Code', since: '2.1.328', how: expect.stringMatching(/adds an error result/) } });
    const all = await findingsOf(duplicateEntryId, jsonl(dupLeaf));
    expect(all[0]!.healedBy).toBeUndefined();
    expect((await findingsOf(rules.find((rule) => rule.meta.id === 'tool-result-not-first')!, jsonl(orphanFirst)))[0]?.healedBy?.how).toMatch(/moves tool results ahead/);
  });

  it('are shown in one line by the stylish reporter and carried through a JSON report read back', async () => {
    const findings = await findingsOf(missingToolResult, jsonl(unanswered));
    const reports = [{ path: 's.jsonl', format: 'claude-code', findings }];
    const text = stylishReporter(reports, { color: false });
    expect(text).toContain('healed on resume by Claude Code 2.1.328+ (adds an error result ("[Tool call interrupted: …]") for the unanswered call); other readers still meet it');
    const read = parseJsonReport(jsonReporter(reports, { color: false }));
    if (typeof read === 'string') throw new Error(read);
    expect(fileReportsOf(read)[0]!.findings[0]!.healedBy).toEqual(findings[0]!.healedBy);
  });
});
