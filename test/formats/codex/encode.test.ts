import { describe, expect, it } from 'vitest';
import { codexEncoder } from '../../../src/formats/codex/encode.js';
import { sessionMetaProblem } from '../../../src/formats/codex/session-meta.js';
import { call, line, resetClock, turnContext, type CallKind } from './rollout.js';

const missing = (callId: string) => ({ kind: 'missing-result' as const, callId, toolName: 'x', timestampFrom: 7 });
/** The time a created line falls back to when the line it follows has none. */
const AT = new Date('2026-01-05T08:00:00.000Z');

describe('Codex encoder', () => {
  it('answers each kind of call with the output type Codex pairs it with, marked "aborted" as Codex does', () => {
    resetClock();
    const expected: Record<CallKind, unknown> = {
      function: { type: 'function_call_output', call_id: 'call_1', output: 'aborted' },
      custom: { type: 'custom_tool_call_output', call_id: 'call_1', output: 'aborted' },
      shell: { type: 'function_call_output', call_id: 'call_1', output: 'aborted' },
      search: { type: 'tool_search_output', call_id: 'call_1', status: 'completed', execution: 'client', tools: [] },
    };
    for (const kind of Object.keys(expected) as CallKind[]) {
      const source = call(kind, 'call_1');
      expect(codexEncoder.create(missing('call_1'), source, AT), kind).toEqual({ timestamp: source.timestamp, type: 'response_item', payload: expected[kind] });
    }
  });

  it('falls back to a function_call_output when the line it follows is not the call', () => {
    resetClock();
    const source = line('response_item', { type: 'message', role: 'assistant', content: [] });
    expect(codexEncoder.create(missing('call_9'), source, AT)).toEqual({ timestamp: source.timestamp, type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_9', output: 'aborted' } });
  });

  it('writes the same bytes every time for the same input', () => {
    resetClock();
    const source = call('custom', 'call_1');
    expect(JSON.stringify(codexEncoder.create(missing('call_1'), source, AT))).toBe(JSON.stringify(codexEncoder.create(missing('call_1'), structuredClone(source), AT)));
    expect(codexEncoder.newId('seed')).toBe(codexEncoder.newId('seed'));
    expect(codexEncoder.newId('seed')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(codexEncoder.newId('other')).not.toBe(codexEncoder.newId('seed'));
  });

  it('renames call ids on calls and outputs, trims names, and changes nothing else', () => {
    resetClock();
    const value = call('function', 'call_old');
    const before = structuredClone(value);
    codexEncoder.apply(value, [{ kind: 'set-call-id', block: 0, id: 'call_new' }, { kind: 'set-call-name', block: 0, name: 'shell' }]);
    expect(value).toEqual({ ...before, payload: { ...before.payload, call_id: 'call_new', name: 'shell' } });
    const result = line('response_item', { type: 'custom_tool_call_output', call_id: 'call_old', output: 'ok' });
    codexEncoder.apply(result, [{ kind: 'set-result-id', pointer: '/payload', id: 'call_new' }]);
    expect(result.payload).toEqual({ type: 'custom_tool_call_output', call_id: 'call_new', output: 'ok' });
    const untouched = structuredClone(result);
    codexEncoder.apply(result, [{ kind: 'set-parent', parentId: '#3' }, { kind: 'set-tool-name', name: 'x' }, { kind: 'reencode' }, { kind: 'canonicalize' }]);
    expect(result).toEqual(untouched);
  });

  it('makes an unreadable header readable, keeping what it already says and its key order', () => {
    resetClock();
    const header = line('session_meta', { id: 'demo', cwd: '/work', git: { branch: 'main' } });
    codexEncoder.apply(header, [{ kind: 'set-session-id', id: 'rollout-2026-01-05T08-00-00-7c0a3e52-91d4-4f6b-8a2e-5b9c1d0e7f34' }]);
    expect(Object.keys(header.payload)).toEqual(['id', 'cwd', 'git', 'timestamp', 'originator', 'cli_version']);
    expect(header.payload).toMatchObject({ id: '7c0a3e52-91d4-4f6b-8a2e-5b9c1d0e7f34', cwd: '/work', git: { branch: 'main' }, timestamp: header.timestamp });
    expect(sessionMetaProblem(header.payload)).toBeUndefined();

    const valid = line('session_meta', { id: '2f4e6a8c-0b1d-4e3f-9a5b-7c9d1e3f5a7b', timestamp: 't', cwd: '', originator: 'o' });
    codexEncoder.apply(valid, [{ kind: 'set-session-id', id: 'session' }]);
    expect(valid.payload.id).toBe('2f4e6a8c-0b1d-4e3f-9a5b-7c9d1e3f5a7b');
    expect(sessionMetaProblem(valid.payload)).toBeUndefined();
  });

  it('derives a UUID for a file not named after one, different for different headers', () => {
    resetClock();
    const a = line('session_meta', { id: 'one' });
    const b = line('session_meta', { id: 'two' });
    codexEncoder.apply(a, [{ kind: 'set-session-id', id: 'session' }]);
    codexEncoder.apply(b, [{ kind: 'set-session-id', id: 'session' }]);
    expect(sessionMetaProblem(a.payload)).toBeUndefined();
    expect(a.payload.id).not.toBe(b.payload.id);
  });

  it('builds a missing header from the file name and the working directory of the turn_context it goes before', () => {
    resetClock();
    const context = turnContext();
    const header = codexEncoder.create({ kind: 'header', id: 'rollout-2026-01-05T08-00-00-7C0A3E52-91D4-4F6B-8A2E-5B9C1D0E7F34', timestampFrom: 1 }, context, AT) as Record<string, any>;
    expect(header).toEqual({
      timestamp: context.timestamp,
      type: 'session_meta',
      payload: { id: '7c0a3e52-91d4-4f6b-8a2e-5b9c1d0e7f34', timestamp: context.timestamp, cwd: '/workspace/sample', originator: 'transcript-doctor', cli_version: '' },
    });
  });
});
