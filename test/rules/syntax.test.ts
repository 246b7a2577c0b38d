import { testRule } from '../helpers/rule-tester.js';
import { Session } from '../helpers/session.js';
import { invalidJson } from '../../src/rules/syntax/invalid-json.js';
import { tornFinalLine } from '../../src/rules/syntax/torn-final-line.js';
import { nulBytes } from '../../src/rules/syntax/nul-bytes.js';
import { invalidUtf8 } from '../../src/rules/syntax/invalid-utf8.js';
import { missingFinalNewline } from '../../src/rules/syntax/missing-final-newline.js';
import { byteOrderMark } from '../../src/rules/syntax/byte-order-mark.js';
import { jsonDocument } from '../../src/rules/syntax/json-document.js';
import { invalidHeader } from '../../src/rules/structure/invalid-header.js';

const healthy = new Session().user('héllo ✓ 你好').reply();
const text = healthy.jsonl();

testRule(invalidJson, {
  valid: [
    { name: 'healthy', jsonl: text },
    { name: 'CRLF line endings and blank lines', jsonl: text.replace(/\n/g, '\r\n\r\n') },
    { name: 'a cut-off last line is torn-final-line, not this rule', jsonl: text + '{"type":"mess' },
  ],
  invalid: [
    { name: 'two records glued', jsonl: text.replace('}\n{', '}{'), findings: [{ line: 1, message: /glued together/ }] },
    { name: 'garbage line', jsonl: text + 'not json\n', findings: [{ line: 4, message: /not valid JSON/ }] },
    {
      name: 'the message never quotes the content',
      jsonl: text + '{"secret":"sk-live-123" oops}\n',
      findings: [{ line: 4, message: /^Line is not valid JSON: [^"]*$/ }],
    },
  ],
});

testRule(tornFinalLine, {
  valid: [{ name: 'healthy', jsonl: text }],
  invalid: [{ name: 'crash mid-write', jsonl: text + '{"type":"message","id":"0a', findings: [{ line: 4, message: /without a line ending/ }] }],
});

testRule(nulBytes, {
  valid: [{ name: 'healthy', jsonl: text }],
  invalid: [
    { name: 'zero-filled tail', jsonl: Buffer.concat([Buffer.from(text), Buffer.alloc(64)]), findings: [{ line: 4, message: /64 NUL/ }] },
  ],
});

testRule(invalidUtf8, {
  valid: [{ name: 'multi-byte characters are fine', jsonl: text }],
  invalid: [
    {
      name: 'broken sequence inside a string',
      jsonl: Buffer.concat([Buffer.from(text), Buffer.from('{"type":"custom","id":"00000009","parentId":null,"customType":"x","data":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]),
      findings: [{ line: 4 }],
    },
  ],
});

testRule(missingFinalNewline, {
  valid: [{ name: 'healthy', jsonl: text }, { name: 'trailing blank lines are fine', jsonl: text + '\n\n' }],
  invalid: [{ name: 'no newline after the last record', jsonl: text.trimEnd(), findings: [{ line: 3 }] }],
});

testRule(byteOrderMark, {
  valid: [{ name: 'healthy', jsonl: text }],
  invalid: [{ name: 'BOM', jsonl: '\uFEFF' + text, findings: [{ line: 1 }] }],
});

const prettyArray = JSON.stringify([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }], null, 2);

testRule(jsonDocument, {
  valid: [
    { name: 'healthy', jsonl: text },
    { name: 'a pretty-printed record of a known format is invalid-json, joined by repair', jsonl: JSON.stringify(JSON.parse(text.split('\n')[0]!), null, 2) + '\n' + text.split('\n').slice(1).join('\n') },
    { name: 'records after the document: the lines are judged one by one', jsonl: prettyArray + '\n' + text },
    { name: 'a document that does not parse as a whole', jsonl: prettyArray.slice(0, -1) },
  ],
  invalid: [
    { name: 'a pretty-printed array, once for the file', jsonl: prettyArray, findings: [{ line: 1, message: 'The file is one JSON document, not JSON Lines: an array of 2 values over 10 lines; no agent reads it as a session.' }] },
    { name: 'an object no agent writes, after blank lines, with CRLF', jsonl: '\n\n' + JSON.stringify({ name: 'x', version: '1.0.0' }, null, 2).replace(/\n/g, '\r\n') + '\r\n', findings: [{ line: 3, message: /an object over 4 lines/ }] },
  ],
});

testRule(invalidJson, {
  valid: [{ name: 'a whole JSON document is json-document, not one finding per line', jsonl: prettyArray }],
  invalid: [],
});

testRule(invalidHeader, {
  valid: [{ name: 'a whole JSON document has no header, said by json-document alone', jsonl: prettyArray }],
  invalid: [],
});
