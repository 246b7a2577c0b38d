import { testRule } from '../helpers/rule-tester.js';
import { call, Session, text } from '../helpers/session.js';
import { missingToolResult } from '../../src/rules/pairing/missing-tool-result.js';
import { orphanToolResult } from '../../src/rules/pairing/orphan-tool-result.js';
import { displacedToolResult } from '../../src/rules/pairing/displaced-tool-result.js';
import { toolResultOrder } from '../../src/rules/pairing/tool-result-order.js';
import { duplicateToolResult } from '../../src/rules/pairing/duplicate-tool-result.js';
import { duplicateToolCallId } from '../../src/rules/pairing/duplicate-tool-call-id.js';
import { resultForFailedTurn } from '../../src/rules/pairing/result-for-failed-turn.js';
import { partialToolCall } from '../../src/rules/pairing/partial-tool-call.js';
import { missingToolResultName } from '../../src/rules/pairing/missing-tool-result-name.js';
import { invalidToolName } from '../../src/rules/pairing/invalid-tool-name.js';

const A = 'toolu_01AAAAAAAAAAAAAAAAAAAAAA';
const B = 'toolu_01BBBBBBBBBBBBBBBBBBBBBB';

const healthy = new Session().user().calls(call(A), call(B, 'exec', { command: 'ls' })).result(A).result(B, 'exec').reply();

testRule(missingToolResult, {
  valid: [
    { name: 'every call answered in order', jsonl: healthy.jsonl() },
    { name: 'failed turn needs no result', jsonl: new Session().user().assistant([call(A)], 'aborted').user('again').reply().jsonl() },
    {
      name: 'legacy toolUse call answered by toolUseId result',
      jsonl: new Session().user().assistant([{ type: 'toolUse', id: A, name: 'exec', input: { command: 'ls' } }], 'toolUse')
        .message({ role: 'toolResult', toolUseId: A, toolName: 'exec', content: [text('x')], isError: false }).reply().jsonl(),
    },
  ],
  invalid: [
    {
      name: 'call then user message',
      jsonl: new Session().user().calls(call(A)).user('still there?').reply().jsonl(),
      findings: [{ line: 3, pointer: '/message/content/1', message: A, providerError: /^Anthropic: messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01A/ }],
    },
    {
      name: 'one of two parallel calls unanswered',
      jsonl: new Session().user().calls(call(A), call(B)).result(A).reply().jsonl(),
      findings: [{ line: 3, pointer: '/message/content/2', message: B }],
    },
    {
      name: 'calls at the very end are an error when no agent holds the session',
      jsonl: new Session().user().calls(call(A)).jsonl(),
      findings: [{ line: 3, severity: 'error', message: /transcript ends here and no running agent holds it/ }],
    },
    {
      name: 'parallel calls partly answered at the very end are an error too',
      jsonl: new Session().user().calls(call(A), call(B)).result(A).jsonl(),
      findings: [{ line: 3, severity: 'error', pointer: '/message/content/2' }],
    },
    {
      name: 'only on an abandoned branch: one severity lower',
      jsonl: new Session().user('q', { id: 'u0000001' }).calls(call(A)).user('other', { parent: 'u0000001' }).reply().jsonl(),
      findings: [{ line: 3, severity: 'warning', message: /not replayed \(abandoned branch\)/ }],
    },
    {
      name: 'compacted away: one severity lower',
      jsonl: new Session().user('old', { id: 'u0000001' }).calls(call(A)).user('keep', { id: 'u0000002' })
        .entry({ type: 'compaction', summary: 's', firstKeptEntryId: 'u0000002', tokensBefore: 1 }).reply().jsonl(),
      findings: [{ line: 3, severity: 'warning', message: /not replayed \(compacted away\)/ }],
    },
    {
      name: 'message index counts merged tool results and skips failed turns',
      jsonl: new Session().user().calls(call('t1'), call('t2')).result('t1').result('t2')
        .assistant([text('x')], 'error').calls(call(A)).user('hm').reply().jsonl(),
      findings: [{ line: 7, providerError: /messages\.3:/ }],
    },
  ],
});

testRule(orphanToolResult, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [
    {
      name: 'result whose call is gone',
      jsonl: new Session().user().result(A).reply().jsonl(),
      findings: [{ line: 3, pointer: '/message', providerError: /messages\.1\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01A/ }],
    },
    {
      name: 'result before its call',
      jsonl: new Session().user().result(A).calls(call(A)).result(A).reply().jsonl(),
      findings: [{ line: 3 }],
    },
    {
      name: 'result without a call id',
      jsonl: new Session().user().message({ role: 'toolResult', toolName: 'read', content: [], isError: false }).jsonl(),
      findings: [{ line: 3, message: 'no call id' }],
    },
  ],
});

testRule(displacedToolResult, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [
    {
      name: 'user message between call and result',
      jsonl: new Session().user().calls(call(A)).user('hurry up').result(A).reply().jsonl(),
      findings: [{ line: 5, message: /line 3/, providerError: /messages\.3\.content\.0: unexpected/ }],
    },
    {
      name: 'result written before its call, and nothing after the call answers it',
      jsonl: new Session().user().result(A).calls(call(A)).reply().jsonl(),
      findings: [{ line: 3, message: /line 4/ }],
    },
  ],
});

testRule(toolResultOrder, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [
    {
      name: 'results swapped',
      jsonl: new Session().user().calls(call(A), call(B, 'exec')).result(B, 'exec').result(A).reply().jsonl(),
      findings: [{ line: 4, message: B }],
    },
  ],
});

testRule(duplicateToolResult, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [
    {
      name: 'synthetic then real: the synthetic one is reported',
      jsonl: new Session().user().calls(call(A)).synthetic(A).result(A).reply().jsonl(),
      findings: [{ line: 4, message: /^Synthetic result .*line 5/ }],
    },
    {
      name: 'two real results: the later one is reported',
      jsonl: new Session().user().calls(call(A)).result(A).result(A).reply().jsonl(),
      findings: [{ line: 5, message: /^Extra result .*line 4/ }],
    },
  ],
});

testRule(duplicateToolCallId, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [
    {
      name: 'same id on two turns',
      jsonl: new Session().user().calls(call(A)).result(A).calls(call(A)).result(A).reply().jsonl(),
      findings: [{ line: 5, pointer: '/message/content/1', providerError: /messages\.3\.content\.1: `tool_use` ids must be unique/ }],
    },
  ],
});

testRule(resultForFailedTurn, {
  valid: [
    { name: 'healthy', jsonl: healthy.jsonl() },
    { name: 'aborted turn without results', jsonl: new Session().user().assistant([call(A)], 'aborted').user().reply().jsonl() },
  ],
  invalid: [
    {
      name: 'synthetic result after an aborted partial call (OpenClaw #9769)',
      jsonl: new Session().user().assistant([call(A, 'write', {}, { partialJson: '{"pa' })], 'aborted').synthetic(A, 'write').user('retry').reply().jsonl(),
      findings: [{ line: 4, message: /aborted turn on line 3/, providerError: /messages\.1\.content\.0: unexpected `tool_use_id`/ }],
    },
    {
      name: 'result after an errored turn',
      jsonl: new Session().user().assistant([call(A)], 'error').result(A).reply().jsonl(),
      findings: [{ line: 4, message: /error turn/ }],
    },
  ],
});

testRule(partialToolCall, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [
    {
      name: 'leftover partialJson in a completed turn',
      jsonl: new Session().user().calls(call(A, 'read', { path: 'a' }, { partialJson: '{"path":"a"}' })).result(A).reply().jsonl(),
      findings: [{ line: 3, pointer: '/message/content/1', message: /leftover streaming buffer/ }],
    },
    {
      name: 'missing arguments',
      jsonl: new Session().user().calls({ type: 'toolCall', id: A, name: 'read' }).result(A).reply().jsonl(),
      findings: [{ line: 3, message: /no arguments/, providerError: /messages\.1\.content\.1\.tool_use\.input: Field required/ }],
    },
    {
      name: 'missing id and name',
      jsonl: new Session().user().calls({ type: 'toolCall', name: ' ', arguments: {} }).reply().jsonl(),
      findings: [{ line: 3, message: /#1 is incomplete: no id, no name/ }],
    },
    {
      name: 'in an aborted turn it is a warning',
      jsonl: new Session().user().assistant([call(A, 'write', {}, { partialJson: '{' })], 'aborted').user().reply().jsonl(),
      findings: [{ line: 3, severity: 'warning', message: /aborted turn/ }],
    },
  ],
});

testRule(missingToolResultName, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [
    {
      name: 'absent name',
      jsonl: new Session().user().calls(call(A)).result(A, null).reply().jsonl(),
      findings: [{ line: 4, pointer: '/message/toolName', message: /has no tool name/, providerError: /function_response\.name: Name cannot be empty/ }],
    },
    { name: 'blank name', jsonl: new Session().user().calls(call(A)).result(A, '  ').reply().jsonl(), findings: [{ line: 4, message: /blank/ }] },
    { name: 'padded name', jsonl: new Session().user().calls(call(A)).result(A, ' read ').reply().jsonl(), findings: [{ line: 4, message: /padded/ }] },
  ],
});

testRule(invalidToolName, {
  valid: [
    { name: 'healthy', jsonl: healthy.jsonl() },
    { name: 'a padded name is trimmed, not rejected', jsonl: new Session().user().calls(call(A, ' read ')).result(A).reply().jsonl() },
    { name: '64 characters', jsonl: new Session().user().calls(call(A, 'n'.repeat(64))).result(A, 'n'.repeat(64)).reply().jsonl() },
  ],
  invalid: [
    {
      name: 'leaked argument tokens in the name',
      jsonl: new Session().user().calls(call(A, 'read<|tool_call_argument_begin|>{"path"')).result(A).reply().jsonl(),
      findings: [{ line: 3, pointer: '/message/content/1/name', message: /letters, digits/, providerError: /^Anthropic: messages\.1\.content\.1\.tool_use\.name: String should match pattern/ }],
    },
    {
      name: '65 characters',
      jsonl: new Session().user().calls(call(A, 'n'.repeat(65))).result(A).reply().jsonl(),
      findings: [{ line: 3, message: /65 characters long/ }],
    },
    {
      name: 'a name with a space inside',
      jsonl: new Session().user().calls(call(A, 'read file')).result(A).reply().jsonl(),
      findings: [{ line: 3 }],
    },
  ],
});
