import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { claudeCodeFormat } from '../../../src/formats/claude-code/index.js';
import { codexFormat } from '../../../src/formats/codex/index.js';
import { piFormat } from '../../../src/formats/pi/index.js';
import { detectFormat } from '../../../src/formats/registry.js';
import type { Entry } from '../../../src/model/entry.js';
import { loadTranscript, TranscriptBuilder } from '../../../src/pipeline/load-transcript.js';
import { LineSplitter } from '../../../src/io/line-reader.js';
import { assistant, call, jsonl, line, meta, output, reasoning, resetClock, tokens, user } from './rollout.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'codex');

async function load(text: string | Buffer) {
  return loadTranscript(Readable.from([Buffer.from(text)]));
}

/** One entry as `line kind role group calls|results`, to compare decodings compactly. */
function describeEntry(entry: Entry): string {
  const calls = entry.toolCalls?.map((c) => `${c.name}:${c.id}${c.missing ? `(missing ${c.missing.join(',')})` : ''}`).join(',') ?? '';
  const results = entry.toolResults?.map((r) => `<-${r.callId}${r.synthetic ? '(synthetic)' : ''}`).join(',') ?? '';
  return `${entry.line} ${entry.kind} ${entry.role ?? '-'}${entry.group === undefined ? '' : ' run'}${entry.inContext ? '' : ' off'} ${calls}${results}`.trimEnd();
}

describe('Codex format: detection', () => {
  it('recognises the rollout envelope of every line type, and only that', () => {
    for (const type of ['session_meta', 'response_item', 'compacted', 'turn_context', 'event_msg']) {
      expect(codexFormat.detect({ timestamp: '2026-01-05T08:00:00.000Z', type, payload: {} }), type).toBe(true);
    }
    expect(codexFormat.detect({ timestamp: 't', type: 'future_record', payload: {} })).toBe(false);
    expect(codexFormat.detect({ type: 'response_item', payload: {} })).toBe(false);
    expect(codexFormat.detect({ timestamp: 't', type: 'event_msg', payload: 'text' })).toBe(false);
    expect(codexFormat.detect({ type: 'session', id: 'x', timestamp: 't' })).toBe(false);
    expect(codexFormat.detect({ type: 'user', uuid: 'u', parentUuid: null, timestamp: 't', message: { role: 'user', content: 'hi' } })).toBe(false);
  });

  it('no other format claims a rollout line, and detection picks codex', () => {
    const sample = { timestamp: '2026-01-05T08:00:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [] } };
    expect(piFormat.detect(sample)).toBe(false);
    expect(claudeCodeFormat.detect(sample)).toBe(false);
    expect(detectFormat(sample)?.name).toBe('codex');
  });
});

describe('Codex format: decoding', () => {
  it('turns every line of the healthy fixture into the neutral entry it stands for', async () => {
    const transcript = await load(readFileSync(join(DIR, 'healthy.jsonl')));
    expect(transcript.format).toBe('codex');
    expect(transcript.entries.toArray().map(describeEntry)).toEqual([
      '1 header - off',
      '2 message other',
      '3 message other',
      '4 state - off',
      '5 message user',
      '6 state - off',
      '7 state - off',
      '8 state - off',
      '9 message assistant run',
      '10 message assistant run shell_command:call_Vb7Kq2Lm9Xp4Rt6Ws1Yz3Na8',
      '11 message assistant run shell_command:call_Hd5Jf8Gc2Pk7Qm4Tn9Uv6Xe1',
      '12 state - off',
      '13 message toolResult <-call_Hd5Jf8Gc2Pk7Qm4Tn9Uv6Xe1',
      '14 message toolResult <-call_Vb7Kq2Lm9Xp4Rt6Ws1Yz3Na8',
      '15 message assistant run',
      '16 message assistant run apply_patch:call_Rw3Ey6Tu9Io2Pa5Sd8Fg1Hj4',
      '17 message toolResult <-call_Rw3Ey6Tu9Io2Pa5Sd8Fg1Hj4',
      '18 message assistant run local_shell:call_Zx4Cv7Bn1Mq5Wr8Et2Yu6Ip3',
      '19 message toolResult <-call_Zx4Cv7Bn1Mq5Wr8Et2Yu6Ip3',
      '20 message assistant run tool_search:call_Lk9Jh3Gf6Ds2Ap5Oi8Uy1Tr4',
      '21 message toolResult <-call_Lk9Jh3Gf6Ds2Ap5Oi8Uy1Tr4',
      '22 message assistant run',
      '23 state - off',
      '24 message assistant run',
      '25 state - off',
      '26 state - off',
      '27 message user',
      '28 state - off',
      '29 state - off',
      '30 message assistant run shell_command:call_Mn2Bv5Cx8Zl1Kj4Hg7Fd3Sa6',
      '31 message toolResult <-call_Mn2Bv5Cx8Zl1Kj4Hg7Fd3Sa6',
      '32 state - off',
      '33 compaction -',
      '34 state - off',
      '35 message assistant run',
    ]);
    const header = transcript.entries.at(0).header!;
    expect(header).toEqual({ valid: true, problem: undefined, id: '5d1c2b3a-7e8f-4a90-b1c2-d3e4f5a6b7c8' });
  });

  it('links every line after the header to the one before it, by position', async () => {
    const transcript = await load(readFileSync(join(DIR, 'healthy.jsonl')));
    const body = transcript.entries.toArray().slice(1);
    expect(body.every((entry) => entry.linksToPrevious && entry.id === `#${entry.index}`)).toBe(true);
    expect(transcript.entries.at(0).id).toBeUndefined();
  });

  it('takes the first session_meta as the header; a copied parent header later on is bookkeeping', async () => {
    resetClock();
    const transcript = await load(jsonl([meta(), meta('2f4e6a8c-0b1d-4e3f-9a5b-7c9d1e3f5a7b'), user('hello')]));
    expect(transcript.entries.toArray().map((e) => e.kind)).toEqual(['header', 'state', 'message']);
  });

  it('says why Codex could not read a header', async () => {
    resetClock();
    const problems = async (payload: Record<string, unknown>) => (await load(jsonl([line('session_meta', payload)]))).entries.at(0).header!.problem;
    const valid = { id: '7c0a3e52-91d4-4f6b-8a2e-5b9c1d0e7f34', timestamp: 't', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.1.0' };
    expect(await problems(valid)).toBeUndefined();
    expect(await problems({ ...valid, id: '7C0A3E5291D44F6B8A2E5B9C1D0E7F34' })).toBeUndefined();
    expect(await problems({ ...valid, id: 'session-1' })).toBe('its "id" is not a UUID');
    expect(await problems({ ...valid, id: undefined })).toBe('its "id" is missing');
    expect(await problems({ ...valid, cli_version: undefined })).toBe('its "cli_version" is missing');
    expect(await problems({ ...valid, cwd: 42 })).toBe('its "cwd" is missing');
  });

  it('marks what Codex cannot read on a call as missing, so the call cannot stay', async () => {
    resetClock();
    const transcript = await load(
      jsonl([
        meta(),
        user('go'),
        line('response_item', { type: 'function_call', name: 'write_stdin', arguments: { chars: 'y' }, call_id: 'call_a' }),
        line('response_item', { type: 'function_call', name: 'shell', summary: 'no arguments', call_id: 'call_b' }),
        line('response_item', { type: 'custom_tool_call', name: ' ', input: 'x', call_id: 'call_c' }),
        line('response_item', { type: 'local_shell_call', status: 'completed', action: { type: 'exec', command: ['ls'] } }),
      ]),
    );
    expect(transcript.entries.toArray().slice(2).map(describeEntry)).toEqual([
      '3 message assistant run write_stdin:call_a(missing arguments)',
      '4 message assistant run shell:call_b(missing arguments)',
      '5 message assistant run  :call_c(missing name)',
      '6 message assistant run local_shell:undefined(missing id)',
    ]);
  });

  it('leaves out of the history what Codex leaves out: system messages, unknown items, unreadable messages, ghost snapshots', async () => {
    resetClock();
    const transcript = await load(
      jsonl([
        meta(),
        line('response_item', { type: 'message', role: 'system', content: [{ type: 'input_text', text: 's' }] }),
        line('response_item', { type: 'future_item', value: 1 }),
        line('response_item', { role: 'user', content: [{ type: 'input_text', text: 'no type' }] }),
        line('response_item', { type: 'message', role: 'user', content: 'not a list' }),
        line('future_record', { anything: true }),
        line('compacted', { replacement_history: [] }),
        '["not an object"]' as unknown as Record<string, unknown>,
      ]),
    );
    expect(transcript.entries.toArray().map(describeEntry)).toEqual(['1 header - off', '2 message other off', '3 state - off', '4 state - off', '5 state - off', '6 state - off', '7 state - off', '8 unknown - off']);
  });

  it('pairs nothing for a tool search the provider ran, nor for a search output naming no call', async () => {
    resetClock();
    const transcript = await load(
      jsonl([
        meta(),
        user('find tools'),
        line('response_item', { type: 'tool_search_call', call_id: 'call_s', status: 'completed', execution: 'server', arguments: {} }),
        line('response_item', { type: 'tool_search_output', call_id: 'call_s', status: 'completed', execution: 'server', tools: [] }),
        line('response_item', { type: 'tool_search_output', status: 'completed', execution: 'client', tools: [] }),
      ]),
    );
    expect(transcript.entries.toArray().slice(2).map(describeEntry)).toEqual(['3 message assistant run', '4 message assistant run', '5 message assistant run']);
  });

  it('recognises the output Codex invents for an interrupted call as synthetic', async () => {
    resetClock();
    const transcript = await load(jsonl([meta(), user('go'), call('function', 'call_x'), line('response_item', { type: 'function_call_output', call_id: 'call_x', output: 'aborted' })]));
    expect(transcript.entries.at(3).toolResults![0]).toMatchObject({ callId: 'call_x', synthetic: true, pointer: '/payload' });
  });

  it('decodes the same entries when a file is read in two halves, the second continuing from the first half’s state', () => {
    resetClock();
    const lines = [meta(), user('a'), reasoning(), call('function', 'call_1'), tokens(), call('custom', 'call_2'), output('custom', 'call_2'), output('function', 'call_1'), assistant('done')];
    const text = Buffer.from(jsonl(lines));
    const whole = decodeLines(text);
    for (let cut = 1; cut < lines.length; cut++) {
      const firstText = Buffer.from(jsonl(lines.slice(0, cut)));
      const first = new TranscriptBuilder(codexFormat);
      new LineSplitter(first.line).push(firstText);
      const second = decodeLines(Buffer.from(jsonl(lines.slice(cut))), first.position!.state);
      const joined = [...first.transcript.entries.toArray().map(describeEntry), ...second.map((entry) => describeEntry(entry).replace(/^\d+/, (n) => String(Number(n) + cut)))];
      expect(joined, `cut after line ${cut}`).toEqual(whole.map(describeEntry));
    }
  });
});

function decodeLines(text: Buffer, state?: unknown): Entry[] {
  const builder = new TranscriptBuilder(codexFormat, state);
  const splitter = new LineSplitter(builder.line);
  splitter.push(text);
  splitter.end();
  return builder.transcript.entries.toArray();
}
