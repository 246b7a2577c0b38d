import { describe, expect, it } from 'vitest';
import { missingItemType } from '../../../src/rules/structure/missing-item-type.js';
import { unreadableContentPart } from '../../../src/rules/structure/unreadable-content-part.js';
import { invalidHeader } from '../../../src/rules/structure/invalid-header.js';
import { testRule } from '../../helpers/rule-tester.js';
import { repairText } from '../../helpers/repair-tester.js';
import { scanText } from '../../helpers/scan-text.js';
import { assistant, call, jsonl, line, meta, output, resetClock, user, type Line } from './rollout.js';

/** The payload of a line without its `type`, as a writer that lost it leaves it. */
function untyped(value: Line): Line {
  const { type: _, ...payload } = value.payload;
  return { ...value, payload };
}

/** A header whose `dynamic_tools` holds `tools`, as Codex Desktop writes them. */
function metaWithTools(tools: unknown): Line {
  const header = meta();
  return { ...header, payload: { ...header.payload, dynamic_tools: tools } };
}

const READ_THREAD = { namespace: 'codex_app', name: 'read_thread', description: 'Read a thread.', inputSchema: { type: 'object', properties: {} }, deferLoading: true };

function rollout(first: Line, ...rest: Line[]): string {
  resetClock();
  return jsonl([first, ...rest]);
}

resetClock();

testRule(missingItemType, {
  valid: [
    { name: 'every history item typed', jsonl: rollout(meta(), user('hi'), call('function', 'call_a'), output('function', 'call_a'), assistant('done')) },
    { name: 'an event line without a type is no history item', jsonl: rollout(meta(), user('hi'), line('event_msg', { message: 'x' }), assistant('done')) },
  ],
  invalid: [
    {
      name: 'a prompt that lost its type: role and content make a message',
      jsonl: rollout(meta(), untyped(user('hi')), assistant('hello')),
      findings: [{ line: 2, message: /agent skips this line; its fields make it a message, which repair writes back/ }],
    },
    {
      name: 'a call and an output that lost theirs',
      jsonl: rollout(meta(), user('hi'), untyped(call('function', 'call_a')), untyped(output('function', 'call_a')), assistant('done')),
      findings: [
        { line: 3, message: /make it a function_call,/ },
        { line: 4, message: /make it a function_call_output,/ },
      ],
    },
    {
      name: 'the output of a custom tool call is a custom_tool_call_output',
      jsonl: rollout(meta(), user('hi'), call('custom', 'call_p'), untyped(output('custom', 'call_p')), assistant('done')),
      findings: [{ line: 4, message: /make it a custom_tool_call_output,/ }],
    },
    {
      name: 'fields of no kind, or of two, are left as they are',
      jsonl: rollout(meta(), user('hi'), line('response_item', { id: 'x' }), line('response_item', { role: 'user', content: [], call_id: 'c', output: 'o' }), assistant('done')),
      findings: [
        { line: 3, message: /its fields do not show which item it was, so repair leaves it/ },
        { line: 4, message: /do not show which item it was/ },
      ],
    },
  ],
});

describe('Codex: items without a type', () => {
  it('an output Codex skips leaves its call unanswered, as Codex sees it', async () => {
    const found = await scanText(rollout(meta(), user('hi'), call('function', 'call_a'), untyped(output('function', 'call_a')), assistant('done')));
    expect(found.map((f) => `${f.line} ${f.rule}`)).toEqual(['3 missing-tool-result', '4 missing-item-type']);
  });

  for (const mode of ['discard', 'synthetic'] as const) {
    it(`${mode}: repair writes the type back, keeps the real output instead of answering the call again, and a second run changes nothing`, async () => {
      const text = rollout(meta(), untyped(user('hi')), call('function', 'call_a'), untyped(output('function', 'call_a')), assistant('done'));
      const once = await repairText(text, mode);
      expect(once.report.findings).toEqual([]);
      expect(once.lines.map((value) => value.payload.type)).toEqual([undefined, 'message', 'function_call', 'function_call_output', 'message']);
      expect(once.lines[3]!.payload.output).toBe('Exit code: 0\nOutput:\nok\n');
      expect(once.output.split('\n')[0]).toBe(text.split('\n')[0]);
      expect((await repairText(once.output, mode)).output).toBe(once.output);
    });
  }

  it('leaves an item it cannot type as it is', async () => {
    const text = rollout(meta(), user('hi'), line('response_item', { id: 'x' }), assistant('done'));
    const once = await repairText(text);
    expect(once.output).toBe(text);
    expect(once.report.findings.map((f) => f.rule)).toEqual(['missing-item-type']);
  });
});

/** A message whose parts are written with `parts` as their types. */
function withParts(role: string, ...parts: Array<[string, string]>): Line {
  return line('response_item', { type: 'message', role, content: parts.map(([type, text]) => ({ type, text })) });
}

testRule(unreadableContentPart, {
  valid: [{ name: 'the part types Codex reads', jsonl: rollout(meta(), withParts('user', ['input_text', 'hi']), withParts('assistant', ['output_text', 'hello'])) }],
  invalid: [
    {
      name: 'a "text" part: what the model wrote in an answer, what it was given in a prompt',
      jsonl: rollout(meta(), withParts('user', ['text', 'hi']), withParts('assistant', ['text', 'hello'])),
      findings: [
        { line: 2, pointer: '/payload/content/0', message: 'Content part of type "text" cannot be read, so the agent skips this line; repair makes it input_text.' },
        { line: 3, pointer: '/payload/content/0', message: /repair makes it output_text\.$/ },
      ],
    },
    {
      name: 'a reasoning part inside a message, beside a text part',
      jsonl: rollout(meta(), user('hi'), withParts('assistant', ['reasoning', 'thinking'], ['text', 'hello'])),
      findings: [
        { line: 3, pointer: '/payload/content/0', message: /"reasoning" cannot be read, so the agent skips this line; repair cannot tell what it stands for and leaves it\.$/ },
        { line: 3, pointer: '/payload/content/1', message: /it reads as output_text, but repair leaves the line for the part beside it that does not\.$/ },
      ],
    },
  ],
});

describe('Codex: content parts it cannot read', () => {
  it('leave the message out of the history, as Codex skips it', async () => {
    const found = await scanText(rollout(meta(), user('hi'), call('function', 'call_a'), output('function', 'call_a'), withParts('assistant', ['text', 'done']), user('next')));
    expect(found.map((f) => `${f.line} ${f.rule}`)).toEqual(['5 unreadable-content-part']);
  });

  for (const mode of ['discard', 'synthetic'] as const) {
    it(`${mode}: repair gives text parts the type they read as, leaves everything else byte for byte, and a second run changes nothing`, async () => {
      const text = rollout(meta(), withParts('user', ['text', 'hi']), withParts('assistant', ['text', 'hello']));
      const once = await repairText(text, mode);
      expect(once.report.findings).toEqual([]);
      expect(once.lines.slice(1).map((value) => value.payload.content[0].type)).toEqual(['input_text', 'output_text']);
      expect(once.output.split('\n')[0]).toBe(text.split('\n')[0]);
      expect((await repairText(once.output, mode)).output).toBe(once.output);
    });
  }

  it('leaves a message with a part of no known meaning as it is', async () => {
    const text = rollout(meta(), user('hi'), withParts('assistant', ['reasoning', 'thinking'], ['text', 'hello']));
    const once = await repairText(text);
    expect(once.output).toBe(text);
  });
});

testRule(invalidHeader, {
  valid: [
    { name: 'dynamic tools Codex can read', jsonl: rollout(metaWithTools([READ_THREAD, { name: 'ping', description: '', inputSchema: null }]), user('hi')) },
    { name: 'no dynamic tools, or null', jsonl: rollout(metaWithTools(null), user('hi')) },
  ],
  invalid: [
    {
      name: 'a dynamic tool without its schema: Codex cannot read the header',
      jsonl: rollout(metaWithTools([READ_THREAD, { namespace: 'functions', name: 'exec_command', description: 'Run a command' }]), user('hi')),
      findings: [{ line: 1, message: 'Session header is invalid: its dynamic_tools[1] ("exec_command") has no "inputSchema"; Codex will not resume it ("rollout at … does not start with session metadata").' }],
    },
    {
      name: 'a dynamic tool without a description',
      jsonl: rollout(metaWithTools([{ name: 'a', inputSchema: {} }]), user('hi')),
      findings: [{ line: 1, message: /dynamic_tools\[0\] \("a"\) has no "description"/ }],
    },
    {
      name: 'a flag that is not true or false',
      jsonl: rollout(metaWithTools([{ ...READ_THREAD, deferLoading: 'yes' }]), user('hi')),
      findings: [{ line: 1, message: /has a "deferLoading" that is not true or false/ }],
    },
    {
      name: 'a sub-agent whose parent thread id is not a UUID',
      jsonl: rollout({ ...meta(), payload: { ...meta().payload, source: { subagent: { thread_spawn: { parent_thread_id: 'parent-thread', depth: 1 } } } } }, user('hi')),
      findings: [{ line: 1, message: /the parent_thread_id of its sub-agent "source" is not a UUID/ }],
    },
    {
      name: 'dynamic_tools that is not a list',
      jsonl: rollout(metaWithTools({ name: 'a' }), user('hi')),
      findings: [{ line: 1, message: /its "dynamic_tools" is not a list/ }],
    },
  ],
});

describe('Codex: dynamic tools in the header', () => {
  it('repair gives a sub-agent the same parent thread id in every file that names the same parent', async () => {
    const child = (name: string) => rollout({ ...meta(), payload: { ...meta().payload, source: { subagent: { thread_spawn: { parent_thread_id: name, depth: 1 } } } } }, user('hi'));
    const [a, b, c] = await Promise.all([repairText(child('parent-thread')), repairText(child('parent-thread')), repairText(child('other-parent'))]);
    const parentOf = (lines: Line[]) => lines[0]!.payload.source.subagent.thread_spawn.parent_thread_id as string;
    expect(parentOf(a.lines)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parentOf(b.lines)).toBe(parentOf(a.lines));
    expect(parentOf(c.lines)).not.toBe(parentOf(a.lines));
    expect(a.report.findings).toEqual([]);
  });

  it('repair completes a tool Codex cannot read the way that keeps every field written, and drops one without a name', async () => {
    const tools = [READ_THREAD, { namespace: 'functions', name: 'exec_command', description: 'Run a command' }, { description: 'nameless' }, { name: 'b', description: 'b', inputSchema: {}, exposeToContext: 1 }];
    const text = rollout(metaWithTools(tools), user('hi'), assistant('hello'));
    const once = await repairText(text);
    expect(once.report.findings).toEqual([]);
    expect(once.lines[0]!.payload.dynamic_tools).toEqual([
      READ_THREAD,
      { namespace: 'functions', name: 'exec_command', description: 'Run a command', inputSchema: { type: 'object', properties: {} } },
      { name: 'b', description: 'b', inputSchema: {} },
    ]);
    expect(once.lines[0]!.payload.id).toBe(meta().payload.id);
    expect(once.output.split('\n').slice(1)).toEqual(text.split('\n').slice(1));
    expect((await repairText(once.output)).output).toBe(once.output);
  });
});
