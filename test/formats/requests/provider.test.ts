import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { repairRewrite, rewriteInput } from '../../../src/pipeline/rewrite.js';
import { scanFile, scanSource } from '../../../src/pipeline/scan.js';

/** A call id of 41 letters: OpenAI Chat allows 40, Anthropic 64. */
const LONG_ID = `call_${'a'.repeat(36)}`;

const chatLine = JSON.stringify({
  messages: [
    { role: 'user', content: 'Read it' },
    { role: 'assistant', content: null, tool_calls: [{ id: LONG_ID, type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: LONG_ID, content: 'text' },
    { role: 'assistant', content: 'Done.' },
  ],
});
const anthropicLine = JSON.stringify({
  model: 'claude-sonnet-4-5',
  system: 'Be brief.',
  messages: [
    { role: 'user', content: 'Read it' },
    { role: 'assistant', content: [{ type: 'tool_use', id: LONG_ID, name: 'read_file', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: LONG_ID, content: 'text' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
  ],
});

async function idFindings(lines: string[], provider?: 'mistral'): Promise<string[]> {
  const report = await scanSource('dataset.jsonl', Readable.from([Buffer.from(lines.join('\n') + '\n')]), undefined, undefined, { provider });
  return report.findings.filter((finding) => finding.rule === 'tool-call-id-format').map((finding) => `${finding.line} ${finding.providerError?.split(':')[0]}`);
}

describe('request lines are judged against the provider their shape talks to', () => {
  it('an OpenAI Chat line breaks OpenAI’s 40-character id limit; the same id in an Anthropic line passes', async () => {
    const found = await idFindings([chatLine, anthropicLine]);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((finding) => finding.startsWith('1 '))).toBe(true);
    expect(found[0]).toMatch(/OpenAI/);
  });

  it('--provider judges every line against the named provider instead', async () => {
    const found = await idFindings([chatLine, anthropicLine], 'mistral');
    expect(new Set(found.map((finding) => finding.split(' ')[0]))).toEqual(new Set(['1', '2']));
    expect(found.every((finding) => /Mistral/.test(finding))).toBe(true);
  });
});

describe('repair of a request line for its provider’s turn order', () => {
  // Gemini: a call turn must follow a user turn or function responses; here it follows a model reply.
  const geminiLine = JSON.stringify({
    contents: [
      { role: 'user', parts: [{ text: 'Read a' }] },
      { role: 'model', parts: [{ text: 'Sure.' }] },
      { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { path: 'a' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { content: 'x' } } }] },
      { role: 'model', parts: [{ text: 'Done.' }] },
    ],
  });

  it('puts a user bridge in the line’s own shape before the call turn; the result scans clean and a second repair changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-requests-bridge-'));
    const [source, once, twice] = ['in.jsonl', 'once.jsonl', 'twice.jsonl'].map((name) => join(dir, name));
    writeFileSync(source!, `${geminiLine}\n`);
    expect((await scanFile(source!)).findings.map((finding) => finding.rule)).toEqual(['call-turn-order']);
    await rewriteInput(source!, undefined, repairRewrite('discard'), { kind: 'file', path: once! });
    const contents = JSON.parse(readFileSync(once!, 'utf8')).contents as Array<{ role: string; parts: unknown[] }>;
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user', 'model', 'user', 'model']);
    expect(contents[2]!.parts).toEqual([{ text: '(continue)' }]);
    expect((await scanFile(once!)).findings).toEqual([]);
    await rewriteInput(once!, undefined, repairRewrite('discard'), { kind: 'file', path: twice! });
    expect(readFileSync(twice!, 'utf8')).toBe(readFileSync(once!, 'utf8'));
  });
});

describe('repair --provider on a dataset', () => {
  it('rewrites each line for the named provider (Mistral: 9-character ids, an assistant bridge before a user turn after tool results) and the result passes its check', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-requests-provider-'));
    const [source, out] = ['in.jsonl', 'out.jsonl'].map((name) => join(dir, name));
    const line = JSON.parse(chatLine) as { messages: unknown[] };
    line.messages.splice(3, 1, { role: 'user', content: 'thanks' }); // a user turn right after the tool result
    writeFileSync(source!, `${JSON.stringify(line)}\n${anthropicLine}\n`);
    const rewrite = { ...repairRewrite('discard'), provider: 'mistral' as const };
    await rewriteInput(source!, undefined, rewrite, { kind: 'file', path: out! });
    const [chat] = readFileSync(out!, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { messages: Array<Record<string, unknown>> });
    const call = (chat!.messages[1]!.tool_calls as Array<{ id: string }>)[0]!;
    expect(call.id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(chat!.messages[2]!.tool_call_id).toBe(call.id);
    expect(chat!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    const left = await scanFile(out!, undefined, undefined, true, { provider: 'mistral' });
    expect(left.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
  });
});

describe('request lines point into their own shape', () => {
  it('a blank Gemini user turn is found at its parts, not at a content field the shape does not have', async () => {
    const line = { contents: [{ role: 'user', parts: [{ text: '  ' }] }, { role: 'model', parts: [{ text: 'Hi.' }] }, { role: 'user', parts: [{ text: 'go' }] }] };
    const report = await scanSource('gemini.jsonl', Readable.from([Buffer.from(JSON.stringify(line) + '\n')]));
    expect(report.findings.map((finding) => `${finding.rule} ${finding.pointer}`)).toEqual(['blank-user-message /contents/0/parts']);
  });
});
