import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { canonicalRewrite, checkCanonical, rewriteInput } from '../../src/pipeline/rewrite.js';
import { Session, text } from '../helpers/session.js';

const A = 'toolu_01AAAAAAAAAAAAAAAAAAAAAA';

async function canonicalize(jsonl: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'td-canon-')), 's.jsonl');
  writeFileSync(file, jsonl);
  const chunks: Buffer[] = [];
  const stream = new Writable({ write: (chunk, _e, done) => (chunks.push(Buffer.from(chunk)), done()) });
  const report = await rewriteInput(file, undefined, canonicalRewrite, { kind: 'stream', stream });
  const output = Buffer.concat(chunks).toString('utf8');
  const check = await checkCanonical(file, undefined);
  return { output, lines: output.trim().split('\n').map((l) => JSON.parse(l)), report, check };
}

/** A session whose assistant makes one call in the given shape and gets the given result fields. */
function withCall(block: Record<string, unknown>, result: Record<string, unknown> = { toolCallId: A }) {
  return new Session()
    .user()
    .assistant([text('Looking.'), block], 'toolUse')
    .message({ role: 'toolResult', ...result, toolName: 'exec', content: [text('ok')], isError: false })
    .reply()
    .jsonl();
}

describe('canonicalize: every variant', () => {
  const canonical = { type: 'toolCall', id: A, name: 'exec', arguments: { command: 'ls' } };
  const cases: Array<[string, Record<string, unknown>]> = [
    ['toolUse + input', { type: 'toolUse', id: A, name: 'exec', input: { command: 'ls' } }],
    ['functionCall', { type: 'functionCall', id: A, name: 'exec', arguments: { command: 'ls' } }],
    ['tool_call', { type: 'tool_call', id: A, name: 'exec', arguments: { command: 'ls' } }],
    ['tool_use + input', { type: 'tool_use', id: A, name: 'exec', input: { command: 'ls' } }],
    ['function_call + toolInput', { type: 'function_call', id: A, name: 'exec', toolInput: { command: 'ls' } }],
    ['arguments as a JSON string', { type: 'toolCall', id: A, name: 'exec', arguments: '{"command":"ls"}' }],
    ['id in toolUseId', { type: 'toolCall', toolUseId: A, name: 'exec', arguments: { command: 'ls' } }],
    ['id in call_id', { type: 'toolCall', call_id: A, name: 'exec', arguments: { command: 'ls' } }],
    ['id in tool_call_id', { type: 'toolCall', tool_call_id: A, name: 'exec', arguments: { command: 'ls' } }],
    ['id in tool_use_id', { type: 'toolCall', tool_use_id: A, name: 'exec', arguments: { command: 'ls' } }],
    ['id in toolCallId', { type: 'toolCall', toolCallId: A, name: 'exec', arguments: { command: 'ls' } }],
    ['agreeing duplicate id', { type: 'toolCall', id: A, toolUseId: A, name: 'exec', arguments: { command: 'ls' } }],
    ['padded name', { type: 'toolCall', id: A, name: '  exec ', arguments: { command: 'ls' } }],
  ];
  for (const [name, block] of cases) {
    it(name, async () => {
      const { lines, check, report } = await canonicalize(withCall(block));
      expect(lines[2].message.content[1]).toEqual(canonical);
      expect(check.findings.map((f) => [f.rule, f.line])).toEqual([['non-canonical-tool-call', 3]]);
      expect(report.findings).toEqual([]);
    });
  }

  it('keeps unknown fields and their order', async () => {
    const { lines } = await canonicalize(withCall({ type: 'toolUse', id: A, thoughtSignature: 'CiQB', name: 'exec', input: { command: 'ls' }, extra: 1 }));
    expect(Object.keys(lines[2].message.content[1])).toEqual(['type', 'id', 'thoughtSignature', 'name', 'arguments', 'extra']);
  });

  it('result id fields become toolCallId', async () => {
    for (const field of ['toolUseId', 'tool_use_id', 'tool_call_id', 'callId', 'call_id']) {
      const { lines, check } = await canonicalize(withCall({ type: 'toolCall', id: A, name: 'exec', arguments: {} }, { [field]: A }));
      expect(lines[3].message.toolCallId).toBe(A);
      expect(lines[3].message[field]).toBeUndefined();
      expect(check.findings.map((f) => f.rule)).toEqual(['non-canonical-tool-result']);
    }
  });

  it('mends mangled Kimi ids on the call and its result alike', async () => {
    const { lines } = await canonicalize(withCall({ type: 'toolCall', id: 'functions read:0', name: 'exec', arguments: {} }, { toolCallId: 'functions read:0' }));
    expect(lines[2].message.content[1].id).toBe('functions.read:0');
    expect(lines[3].message.toolCallId).toBe('functions.read:0');
  });

  it('reports instead of guessing when ids disagree or arguments are not JSON', async () => {
    for (const block of [
      { type: 'toolUse', id: A, toolUseId: 'toolu_other', name: 'exec', input: {} },
      { type: 'toolCall', id: A, name: 'exec', arguments: 'ls -la' },
    ]) {
      const jsonl = withCall(block);
      const { output, report, check } = await canonicalize(jsonl);
      expect(output).toBe(jsonl);
      expect(report.findings.map((f) => f.rule)).toEqual(['ambiguous-tool-shape']);
      expect(check.findings.map((f) => f.rule)).toEqual(['ambiguous-tool-shape']);
    }
  });

  it('fills a missing tool name from its call, trims a padded one, and leaves one without a call absent', async () => {
    const jsonl = new Session()
      .user()
      .assistant([{ type: 'toolCall', id: A, name: 'exec', arguments: {} }], 'toolUse')
      .result(A, null)
      .result('toolu_nobody', null)
      .result('toolu_padded', ' read ')
      .jsonl();
    const { lines, check } = await canonicalize(jsonl);
    expect(lines.slice(3).map((l) => l.message.toolName)).toEqual(['exec', undefined, 'read']);
    expect(check.findings.map((f) => [f.rule, f.line])).toEqual([
      ['missing-tool-result-name', 4],
      ['missing-tool-result-name', 6],
    ]);
  });

  it('never touches thinking blocks and copies canonical lines byte for byte', async () => {
    const thinking = { type: 'thinking', thinking: '', thinkingSignature: 'EqUK' };
    const jsonl = withCall({ type: 'toolUse', id: A, name: 'exec', input: {} }).replace('"content":[{"type":"text","text":"Looking."}', `"content":[${JSON.stringify(thinking)},{"type":"text","text":"Looking."}`);
    const { output, lines } = await canonicalize(jsonl);
    expect(lines[2].message.content[0]).toEqual(thinking);
    const before = jsonl.split('\n');
    const after = output.split('\n');
    expect(after.filter((line, i) => line === before[i]).length).toBe(before.length - 1);
  });

  it('is idempotent', async () => {
    const first = await canonicalize(withCall({ type: 'toolUse', id: A, name: 'exec', input: {} }, { toolUseId: A }));
    const second = await canonicalize(first.output);
    expect(second.report.repair!.changed).toBe(false);
    expect(second.check.findings).toEqual([]);
  });
});
