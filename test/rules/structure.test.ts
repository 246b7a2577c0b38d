import { testRule } from '../helpers/rule-tester.js';
import { Session } from '../helpers/session.js';
import { invalidHeader } from '../../src/rules/structure/invalid-header.js';
import { duplicateHeader } from '../../src/rules/structure/duplicate-header.js';
import { duplicateEntryId } from '../../src/rules/structure/duplicate-entry-id.js';
import { unknownParent } from '../../src/rules/structure/unknown-parent.js';
import { parentCycle } from '../../src/rules/structure/parent-cycle.js';
import { missingParentId } from '../../src/rules/structure/missing-parent-id.js';

const healthy = new Session().user().reply();
const HEADER = JSON.stringify({ type: 'session', version: 3, id: 'abc', timestamp: '2026-03-02T09:00:00.000Z', cwd: '/w' });

testRule(invalidHeader, {
  valid: [
    { name: 'healthy', jsonl: healthy.jsonl() },
    { name: 'v1 header without version', jsonl: new Session({ version: undefined }).jsonl() },
    { name: 'empty file', jsonl: '' },
  ],
  invalid: [
    {
      name: 'torn header line: the first parsed entry is a message',
      jsonl: '{"type":"sess\n' + new Session(false).user().reply().jsonl(),
      findings: [{ line: 2, message: /not a session header/ }],
    },
    { name: 'header without id', jsonl: new Session({ id: '' }).user().jsonl(), findings: [{ line: 1, pointer: '/id', message: /"id" is missing/ }] },
    { name: 'nothing parses', jsonl: '{"type":\n', findings: [{ line: 1, message: /No line parses/ }] },
  ],
});

testRule(duplicateHeader, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [{ name: 'second header', jsonl: new Session().user().raw(HEADER).reply().jsonl(), findings: [{ line: 3, message: /line 1/ }] }],
});

testRule(duplicateEntryId, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [
    {
      name: 'id reused',
      jsonl: new Session().user('a', { id: 'aaaaaaaa' }).reply().user('b', { id: 'aaaaaaaa' }).reply().jsonl(),
      findings: [{ line: 4, pointer: '/id', message: /aaaaaaaa is already used on line 2/ }],
    },
  ],
});

testRule(unknownParent, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [
    {
      name: 'parent line was dropped',
      jsonl: new Session().user().reply().user('next', { parent: 'deadbeef' }).reply().jsonl(),
      findings: [{ line: 4, pointer: '/parentId', message: /deadbeef/ }],
    },
    {
      name: 'on an abandoned branch it is a warning',
      jsonl: new Session().user('x', { parent: 'deadbeef' }).user('root', { parent: null }).reply().jsonl(),
      findings: [{ line: 2, severity: 'warning', message: /abandoned branch/ }],
    },
  ],
});

testRule(parentCycle, {
  valid: [{ name: 'healthy', jsonl: healthy.jsonl() }],
  invalid: [
    { name: 'self parent', jsonl: new Session().user('x', { id: 'aaaaaaaa', parent: 'aaaaaaaa' }).jsonl(), findings: [{ line: 2, message: /its own parent/ }] },
    {
      name: 'two-entry cycle',
      jsonl: new Session().user('x', { id: 'aaaaaaaa', parent: 'bbbbbbbb' }).reply('y', ).user('z', { id: 'bbbbbbbb', parent: 'aaaaaaaa' }).jsonl(),
      findings: [{ line: 2, message: /cycle: aaaaaaaa → bbbbbbbb → aaaaaaaa|cycle: bbbbbbbb → aaaaaaaa → bbbbbbbb/ }],
    },
  ],
});

testRule(missingParentId, {
  valid: [
    { name: 'healthy', jsonl: healthy.jsonl() },
    { name: 'v1 entries have no ids at all', jsonl: new Session({ version: undefined }).user('x', { parent: false, id: undefined }).jsonl().replace(/"id":"[0-9a-f]+",/g, '') },
    { name: 'lines of unknown types are not tree entries', jsonl: healthy.raw('{"type":"leaf","targetId":"x"}').jsonl() },
  ],
  invalid: [
    {
      name: 'raw injected line as the last line',
      jsonl: new Session().user().reply().assistant([{ type: 'text', text: '[cron] sent' }], 'injected', { parent: false }).jsonl(),
      findings: [{ line: 4, message: /has no parentId/ }],
    },
  ],
});
