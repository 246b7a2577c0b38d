import { testRule } from '../helpers/rule-tester.js';
import { Session, text } from '../helpers/session.js';
import { emptyErrorTurn } from '../../src/rules/content/empty-error-turn.js';
import { blankUserMessage } from '../../src/rules/content/blank-user-message.js';
import { emptyTextBlock } from '../../src/rules/content/empty-text-block.js';

const healthy = new Session().user().reply();

testRule(emptyErrorTurn, {
  valid: [
    { name: 'healthy', jsonl: healthy.jsonl() },
    { name: 'empty silent stop is legitimate', jsonl: new Session().user().assistant([], 'stop').jsonl() },
    { name: 'already rewritten', jsonl: new Session().user().assistant([text('[assistant turn failed before producing content]')], 'error').jsonl() },
  ],
  invalid: [{ name: 'content [] with stopReason error', jsonl: new Session().user().assistant([], 'error').user().reply().jsonl(), findings: [{ line: 3, pointer: '/message/content' }] }],
});

testRule(blankUserMessage, {
  valid: [
    { name: 'healthy', jsonl: healthy.jsonl() },
    { name: 'image-only message', jsonl: new Session().user([{ type: 'image', data: 'iVBOR', mimeType: 'image/png' }]).jsonl() },
  ],
  invalid: [
    { name: 'empty string', jsonl: new Session().user('').reply().jsonl(), findings: [{ line: 2, pointer: '/message/content' }] },
    { name: 'only blank text blocks', jsonl: new Session().user([text(' '), text('\n')]).reply().jsonl(), findings: [{ line: 2 }] },
  ],
});

testRule(emptyTextBlock, {
  valid: [
    { name: 'healthy', jsonl: healthy.jsonl() },
    { name: 'empty thinking with a signature is normal', jsonl: new Session().user().assistant([{ type: 'thinking', thinking: '', thinkingSignature: 'EqUK' }, text('hi')]).jsonl() },
  ],
  invalid: [
    { name: 'empty text next to a tool call (pi: a warning)', jsonl: new Session().user().assistant([text(''), text('ok')]).jsonl(), findings: [{ line: 3, severity: 'warning', pointer: '/message/content/0', message: 'Empty text block in an assistant message.' }] },
    { name: 'whitespace text in a user message (pi: a warning)', jsonl: new Session().user([text('hi'), text('  ')]).reply().jsonl(), findings: [{ line: 2, severity: 'warning', pointer: '/message/content/1', message: 'text block in a user message.' }] },
  ],
});

// Without --provider, a session's findings quote the provider its turns talk to where that one refuses what they find.
const toGemini = (session: Session) => session.jsonl().replaceAll('"api":"anthropic-messages","provider":"anthropic"', '"api":"google-generative-ai","provider":"google"');

testRule(emptyErrorTurn, {
  valid: [],
  invalid: [
    { name: 'talking to Anthropic, which takes it: the message says so, Bedrock is quoted', jsonl: new Session().user().assistant([], 'error').user().reply().jsonl(), findings: [{ line: 3, message: 'Failed assistant turn has empty content; Anthropic takes it, other providers refuse it.', providerError: /^Bedrock Converse: .* at messages\.1 is empty/ }] },
    { name: 'talking to Gemini, which refuses it: Gemini is quoted', jsonl: toGemini(new Session().user().assistant([], 'error').user().reply()), findings: [{ line: 3, message: 'Failed assistant turn has empty content.', providerError: /^Gemini: \* GenerateContentRequest\.contents\[1\]\.parts: contents\.parts must not be empty\.$/ }] },
  ],
});

testRule(emptyTextBlock, {
  valid: [],
  invalid: [{ name: 'talking to Gemini: Gemini is quoted', jsonl: toGemini(new Session().user().assistant([text(''), text('Hi.')])), findings: [{ line: 3, severity: 'warning', providerError: /^Gemini: / }] }],
});
