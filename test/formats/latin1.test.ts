import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeCodeFormat } from '../../src/formats/claude-code/index.js';
import { codexFormat } from '../../src/formats/codex/index.js';
import { copilotCliFormat } from '../../src/formats/copilot-cli/index.js';
import { geminiCliFormat } from '../../src/formats/gemini-cli/index.js';
import type { TranscriptFormat } from '../../src/formats/format.js';
import { piFormat } from '../../src/formats/pi/index.js';
import { qwenCodeFormat } from '../../src/formats/qwen-code/index.js';
import { readsAsLatin1 } from '../../src/io/line-text.js';
import { loadBytes } from '../../src/pipeline/load-transcript.js';

/** Every parsed line of a format's fixtures. */
function fixtureValues(folder: string): unknown[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(`${folder}/${name}`, 'utf8').split('\n'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as unknown];
      } catch {
        return [];
      }
    });
}

/** Non-ASCII a session may hold anywhere: accents, the whitespace trim knows (a blank message), CJK, emoji, a line separator. */
const extra = fc.constantFrom('é', 'à', '\u00a0', '\u3000', '\u2028', '中文', '😀', 'Ã', '\u0085');

/**
 * A fixture line with non-ASCII written into some of its strings (ids, names, models, contents),
 * put in place of them, or made long, and now and then a non-ASCII field or a `__proto__` field added.
 */
function events(values: unknown[]): fc.Arbitrary<unknown> {
  return fc.tuple(fc.constantFrom(...values), fc.infiniteStream(fc.tuple(fc.nat(7), extra))).map(([value, choices]) => {
    const iterator = choices[Symbol.iterator]();
    const change = (inner: unknown): unknown => {
      const [how, text] = iterator.next().value as [number, string];
      if (typeof inner === 'string') return [inner + text, text + inner, text, text.repeat(300), ' ' + text + ' '][how] ?? inner;
      if (Array.isArray(inner)) return inner.map(change);
      if (inner === null || typeof inner !== 'object') return inner;
      const fields = Object.entries(inner).map(([key, field]): [string, unknown] => [key, change(field)]);
      if (how === 5) fields.push([`ключ${text}`, text]);
      if (how === 6) fields.push(['__proto__', { toolCallId: text, id: text, name: text }]);
      return Object.fromEntries(fields);
    };
    return change(value);
  });
}

/** The same format, its decoder given every line as UTF-8. */
const utf8Only = (format: TranscriptFormat): TranscriptFormat => ({
  ...format,
  createDecoder: (state) => Object.assign(format.createDecoder(state), { readsLatin1: false }),
});

/** Lines where a reading of latin1 text as it stands would differ: whitespace trim knows, a last character, image fields. */
const piCases = [
  { type: 'message', id: 'a1', parentId: null, message: { role: 'assistant', content: [{ type: 'text', text: '\u3000 ' }], stopReason: 'stop', api: 'apié', provider: 'prové' } },
  { type: 'message', id: 'a2', parentId: 'a1', message: { role: 'assistant', content: [{ type: 'text', text: 'done à ' }], stopReason: 'stop', api: 'apié', provider: 'prové' } },
  { type: 'message', id: 'u1', parentId: 'a2', message: { role: 'user', content: '\u00a0\u3000' } },
  { type: 'message', id: 'u2', parentId: 'u1', message: { role: 'user', content: [{ type: 'text', text: 'à' }, { type: 'text', text: '\u2028' }, { type: 'image', data: 'iVBORw0KGgoé', mimeType: 'image/pngé' }] } },
  { type: 'message', id: 'a3', parentId: 'u2', message: { role: 'assistant', content: [{ type: 'toolCall', id: 'callé', name: 'readà', arguments: {} }], stopReason: 'toolUse' } },
  { type: 'message', id: 'r1', parentId: 'a3', message: { role: 'toolResult', toolCallId: 'callé', toolName: 'readà', content: [{ type: 'image', data: 'R0lGODlh', mimeType: 'image/gifé' }] } },
];

const copilotCases = [
  { type: 'user.message', data: { content: '\u3000\u00a0' }, id: 'u1', timestamp: 't', parentId: null },
  { type: 'assistant.message', data: { messageId: 'm', content: '', model: 'modèle', toolRequests: [{ toolCallId: 'callé', name: 'outilà', arguments: {} }] }, id: 'a1', timestamp: 't', parentId: null },
  { type: 'tool.execution_complete', data: { toolCallId: 'callé', success: true }, id: 'r1', timestamp: 't', parentId: null, agentId: 'agenté' },
];

const claudeCodeCases = [
  { type: 'user', uuid: 'u1é', parentUuid: null, message: { role: 'user', content: '\u3000\u00a0' } },
  { type: 'assistant', uuid: 'a1é', parentUuid: 'u1é', logicalParentUuid: 'lé', message: { id: 'msgé', role: 'assistant', stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 'toolé', name: 'Bashà', input: {} }, { type: 'server_tool_use', id: 'srvé' }, { type: 'wébé_tool_result', tool_use_id: 'srvé' }] } },
  { type: 'user', uuid: 'u2', parentUuid: 'a1é', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolé', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/pngé', data: 'iVBORw0KGgoé' } }] }, { type: 'text', text: '\u2028' }] } },
  { type: 'assistant', uuid: 'a2', parentUuid: 'u2', message: { id: 'msg2', role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: '\u3000 ' }] } },
];

const codexCases = [
  { timestamp: 't', type: 'session_meta', payload: { id: 'sessioné', timestamp: 't', cwd: '/é', originator: 'codex_cli_rs', cli_version: '0.1' } },
  { timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '\u3000<environment_context>é' }, { type: 'input_image', image_url: 'data:image/pngé;base64,iVBORw0KGgo=' }] } },
  { timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'tëxt', text: 'é' }] } },
  { timestamp: 't', type: 'response_item', payload: { type: 'custom_tool_call', call_id: 'callé', name: 'applyé', input: 'é' } },
  { timestamp: 't', type: 'response_item', payload: { call_id: 'callé', output: 'é' } },
  { timestamp: 't', type: 'response_item', payload: { type: 'function_call_output', call_id: 'callé', output: 'é' } },
  { timestamp: 't', type: 'compacted', payload: { message: 'é', replacement_history: [{ type: 'function_call', call_id: 'xé', name: 'é', arguments: '{}' }] } },
];

const qwenCases = [
  { uuid: 's1', parentUuid: null, type: 'system', subtype: 'ui_telemetry', systemPayload: { uiEvent: { auth_type: 'authé' } } },
  { uuid: 'u1é', parentUuid: 's1', type: 'user', message: { role: 'user', parts: [{ text: '\u3000\u00a0' }] } },
  { uuid: 'a1', parentUuid: 'u1é', type: 'assistant', model: 'modèle', message: { role: 'model', parts: [{ functionCall: { id: 'callé', name: 'lireà', args: {} } }] } },
  { uuid: 'r1', parentUuid: 'a1', type: 'tool_result', message: { role: 'user', parts: [{ functionResponse: { id: 'callé', name: 'lireà', response: { output: 'é' } } }, { inlineData: { mimeType: 'image/pngé', data: 'iVBORw0KGgoé' } }] } },
];

const geminiCases = [
  { sessionId: 'sé', projectHash: 'pé', startTime: 't', lastUpdated: 't', kind: 'main' },
  // First: a new list leaves no earlier summary to compare.
  { $set: { messages: [{ id: 'u0é', timestamp: 't', type: 'user', content: [{ text: 'é\u2028' }] }] } },
  { $rewindTo: 'u0é' },
  { id: 'u1é', timestamp: 't', type: 'user', content: [{ text: '\u3000\u00a0' }] },
  { id: 'u3', timestamp: 't', type: 'user', content: [{ text: '\u3000/help é' }] },
  { id: 'g1é', timestamp: 't', type: 'gemini', content: '', model: 'modèle', toolCalls: [{ id: 'callé', name: 'lireà', args: {}, status: 'success', result: [{ functionResponse: { id: 'callé', name: 'lireà', response: { output: 'é' } } }] }] },
  { id: 'g2', timestamp: 't', type: 'gemini', content: '\u3000[The previous response was interrupted before it completed.]\u00a0' },
  { id: 'g3', timestamp: 't', type: 'gemini', content: [{ text: '\u3000' }, { text: 'é' }] },
  { id: 'u2', timestamp: 't', type: 'usèr', content: [{ text: 'à' }] },
];

describe.each([
  { format: copilotCliFormat, fixtures: 'fixtures/copilot-cli', cases: copilotCases },
  { format: piFormat, fixtures: 'fixtures/pi', cases: piCases },
  { format: claudeCodeFormat, fixtures: 'fixtures/claude-code', cases: claudeCodeCases },
  { format: codexFormat, fixtures: 'fixtures/codex', cases: codexCases },
  { format: qwenCodeFormat, fixtures: 'fixtures/qwen-code', cases: qwenCases },
  { format: geminiCliFormat, fixtures: 'fixtures/gemini-cli', cases: geminiCases },
])('$format.name lines read as latin1', ({ format, fixtures, cases }) => {
  const values = fixtureValues(fixtures);

  it('decode as their UTF-8 text where reading latin1 text as it stands would not', () => {
    const utf8 = format.createDecoder();
    const latin1 = format.createDecoder();
    const decoded = cases.map((value, index) => {
      const bytes = Buffer.from(JSON.stringify(value), 'utf8');
      expect(readsAsLatin1(bytes.toString('latin1')) && !isAscii(bytes)).toBe(true);
      return [latin1.decode(JSON.parse(bytes.toString('latin1')), index + 1, index, true), utf8.decode(JSON.parse(bytes.toString('utf8')), index + 1, index)];
    });
    // What a decoder holds back (Gemini CLI's summaries) is written into its entries at the end.
    latin1.end?.();
    utf8.end?.();
    for (const [read, expected] of decoded) expect(read).toEqual(expected);
  });

  it('decode to the entries and decoder state their UTF-8 text gives', () => {
    expect(format.createDecoder().readsLatin1).toBe(true);
    fc.assert(
      fc.property(fc.array(events(values), { minLength: 1, maxLength: 12 }), (lines) => {
        const utf8 = format.createDecoder();
        const latin1 = format.createDecoder();
        lines.forEach((value, index) => {
          const bytes = Buffer.from(JSON.stringify(value), 'utf8');
          const read = !isAscii(bytes) && readsAsLatin1(bytes.toString('latin1'));
          expect(latin1.decode(JSON.parse(bytes.toString(read ? 'latin1' : 'utf8')), index + 1, index, read)).toEqual(utf8.decode(JSON.parse(bytes.toString('utf8')), index + 1, index));
          expect(latin1.state()).toEqual(utf8.state());
        });
      }),
      { numRuns: 400 },
    );
  });

  it('load into the transcript of a load that reads every line as UTF-8', () => {
    fc.assert(
      fc.property(fc.array(events(values), { minLength: 1, maxLength: 30 }), (lines) => {
        const bytes = Buffer.from([values[0], ...lines].map((value) => JSON.stringify(value)).join('\n') + '\n');
        const read = loadBytes(bytes, format);
        const expected = loadBytes(bytes, utf8Only(format));
        const entries = (transcript: typeof read) => Array.from({ length: transcript.entries.length }, (_, i) => transcript.entries.at(i));
        expect(entries(read)).toEqual(entries(expected));
        expect(read.lineIssues).toEqual(expected.lineIssues);
      }),
      { numRuns: 150 },
    );
  });
});
