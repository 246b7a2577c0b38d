import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repairRewrite, rewriteInput, type RepairReport } from '../../../src/pipeline/rewrite.js';
import type { RepairMode } from '../../../src/repair/plan.js';
import { scanFile } from '../../../src/pipeline/scan.js';
import { pairingProblems, userTexts } from './contract.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'requests');
const SHAPES = ['openai-chat', 'anthropic', 'responses', 'gemini'];

async function repairTo(source: string, mode: RepairMode): Promise<{ text: string; out: string; report: RepairReport }> {
  const out = join(mkdtempSync(join(tmpdir(), 'td-requests-')), 'out.jsonl');
  const report = await rewriteInput(source, undefined, repairRewrite(mode), { kind: 'file', path: out });
  return { text: readFileSync(out, 'utf8'), out, report };
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('requests: repair', () => {
  it('the independent judge agrees with scan on every fixture line before repair', async () => {
    for (const shape of SHAPES) {
      for (const kind of ['healthy', 'broken']) {
        const source = join(DIR, `${shape}-${kind}.jsonl`);
        const flagged = new Set((await scanFile(source)).findings.map((f) => f.line));
        lines(readFileSync(source, 'utf8')).forEach((line, i) => {
          expect(pairingProblems(JSON.parse(line)).length > 0, `${shape}-${kind} line ${i + 1}`).toBe(flagged.has(i + 1));
        });
      }
    }
  });

  for (const shape of SHAPES) {
    for (const mode of ['discard', 'synthetic'] as const) {
      it(`${shape}-broken.jsonl (${mode}): every call answered in the provider's terms, user text kept, healthy lines untouched, a second run changes nothing`, async () => {
        const source = join(DIR, `${shape}-broken.jsonl`);
        const input = lines(readFileSync(source, 'utf8'));
        const before = await scanFile(source);
        const { text, out, report } = await repairTo(source, mode);
        const output = lines(text);
        expect(output).toHaveLength(input.length);
        output.forEach((line, i) => {
          expect(pairingProblems(JSON.parse(line)), `line ${i + 1}`).toEqual([]);
          expect(userTexts(JSON.parse(line)), `line ${i + 1}`).toEqual(userTexts(JSON.parse(input[i]!)));
          if (!before.findings.some((f) => f.line === i + 1)) expect(line).toBe(input[i]);
        });
        expect(report.repair.changed).toBe(true);
        expect(report.findings).toEqual([]);
        expect((await scanFile(out)).findings).toEqual([]);
        const again = await repairTo(out, mode);
        expect(again.text).toBe(text);
        expect(again.report.repair.changed).toBe(false);
      });
    }
  }

  it('synthetic mode answers an unanswered call in the shape’s own syntax; discard mode drops it', async () => {
    const chat = join(DIR, 'openai-chat-broken.jsonl');
    const synthetic = lines((await repairTo(chat, 'synthetic')).text);
    expect(synthetic[1]).toContain('{"role":"tool","tool_call_id":"call_m2","content":"No result: the tool call was interrupted');
    const discard = lines((await repairTo(chat, 'discard')).text);
    expect(discard[1]).not.toContain('call_m2');
    expect(discard[5]).toBe('{"messages":[{"role":"user","content":"Delete tmp"},{"role":"assistant","content":"Deleting."}]}');
    const gemini = lines((await repairTo(join(DIR, 'gemini-broken.jsonl'), 'synthetic')).text);
    // One response turn for the call turn, in call order, with no id the file never had.
    expect(JSON.parse(gemini[0]!).contents[2].parts.map((p: { functionResponse: { name: string; id?: string } }) => [p.functionResponse.name, p.functionResponse.id])).toEqual([
      ['read_file', undefined],
      ['list_dir', undefined],
    ]);
    const anthropic = lines((await repairTo(join(DIR, 'anthropic-broken.jsonl'), 'synthetic')).text);
    expect(JSON.parse(anthropic[0]!).messages[2].content.map((b: { tool_use_id: string; is_error?: boolean }) => `${b.tool_use_id}${b.is_error ? '!' : ''}`)).toEqual(['toolu_02A', 'toolu_02B!']);
    const responses = lines((await repairTo(join(DIR, 'responses-broken.jsonl'), 'synthetic')).text);
    expect(responses[0]).toContain('{"type":"function_call_output","call_id":"call_z1","output":"aborted"}');
  });

  it('a changed line keeps the spelling of every value it does not change', async () => {
    const line =
      '{ "temperature": 1.50, "seed": 12345678901234567890, "messages": [ {"role":"user","content":"caf\\u00e9 \\ud83d\\ude00"}, {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"call_2","type":"function","function":{"name":"g","arguments":"{}"}}]}, {"role":"tool","tool_call_id":"call_1","content":"1e400"}, {"role":"assistant","content":"ok", "n": -0.0} ] }';
    const source = join(mkdtempSync(join(tmpdir(), 'td-requests-')), 'in.jsonl');
    writeFileSync(source, `${line}\n`);
    const { text } = await repairTo(source, 'discard');
    expect(text).toBe(line.replace(',{"id":"call_2","type":"function","function":{"name":"g","arguments":"{}"}}', '') + '\n');
  });

  it('an edited line keeps an earlier copy of a duplicated "messages" key as it was', async () => {
    const first = '"messages":[{"role":"user","content":"FIRST COPY"}]';
    const line = `{${first},"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_m1","type":"function","function":{"name":"read","arguments":"{}"}}]}]}`;
    const source = join(mkdtempSync(join(tmpdir(), 'td-requests-')), 'in.jsonl');
    writeFileSync(source, `${line}\n`);
    const { text } = await repairTo(source, 'discard');
    expect(text).toBe(`{${first},"messages":[{"role":"user","content":"hi"}]}\n`);
  });

  it('keeps CRLF endings, drops unreadable lines, puts glued requests on lines of their own and ends the last line', async () => {
    const healthy = '{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}';
    const broken = '{"messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"c9","content":"y"}]}';
    const fixed = '{"messages":[{"role":"user","content":"x"}]}';
    const source = join(mkdtempSync(join(tmpdir(), 'td-requests-')), 'in.jsonl');
    writeFileSync(source, `${healthy}\r\n{"messages":[{"role\r\n${healthy}${broken}\r\n${broken}`);
    const { text, report } = await repairTo(source, 'discard');
    expect(text).toBe(`${healthy}\r\n${healthy}\r\n${fixed}\r\n${fixed}\r\n`);
    expect(report.repair.lines.dropped).toEqual([2]);
    expect(report.repair.counts.splitLines).toBe(1);
    expect(report.findings).toEqual([]);
  });

  it('a clean dataset is copied as it is and says so', async () => {
    const source = join(DIR, 'openai-chat-healthy.jsonl');
    const { text, report } = await repairTo(source, 'synthetic');
    expect(text).toBe(readFileSync(source, 'utf8'));
    expect(report.repair.changed).toBe(false);
  });
});

describe('requests: repair leaves what the line’s provider accepts', () => {
  const write = (line: unknown) => {
    const source = join(mkdtempSync(join(tmpdir(), 'td-requests-')), 'in.jsonl');
    writeFileSync(source, JSON.stringify(line) + '\n');
    return source;
  };
  const blank = {
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Hi' }, { type: 'text', text: '' }] },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: '' },
    ],
  };

  it('an OpenAI chat line keeps its blank text and blank user message (OpenAI takes them); named for Anthropic, they are fixed', async () => {
    const source = write(blank);
    const { text, report } = await repairTo(source, 'discard');
    expect(text).toBe(JSON.stringify(blank) + '\n');
    expect(report.repair.changed).toBe(false);
    expect((await scanFile(source)).findings).toEqual([]);
    const out = join(mkdtempSync(join(tmpdir(), 'td-requests-')), 'out.jsonl');
    const named = await rewriteInput(source, undefined, { ...repairRewrite('discard'), provider: 'anthropic' }, { kind: 'file', path: out });
    expect(named.repair.changed).toBe(true);
    expect(named.findings).toEqual([]);
    const messages = (JSON.parse(readFileSync(out, 'utf8')) as typeof blank).messages;
    expect(messages[0]!.content).toEqual([{ type: 'text', text: 'Hi' }]);
    expect(messages[2]!.content).not.toBe('');
  });

  it('a Gemini call without an id is not renamed for a provider with an id shape: there is no id to write', async () => {
    const line = {
      contents: [
        { role: 'user', parts: [{ text: 'Read it' }] },
        { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'text' } } }] },
        { role: 'model', parts: [{ text: 'Done.' }] },
      ],
    };
    const source = write(line);
    const out = join(mkdtempSync(join(tmpdir(), 'td-requests-')), 'out.jsonl');
    const report = await rewriteInput(source, undefined, { ...repairRewrite('discard'), provider: 'mistral' }, { kind: 'file', path: out });
    expect(report.repair.counts.renamedToolCalls).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(JSON.stringify(line) + '\n');
  });
});
