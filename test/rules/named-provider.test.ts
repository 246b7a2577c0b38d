import { testRule } from '../helpers/rule-tester.js';
import { call, Session, text } from '../helpers/session.js';
import { emptyTextBlock } from '../../src/rules/content/empty-text-block.js';
import { blankUserMessage } from '../../src/rules/content/blank-user-message.js';
import { emptyErrorTurn } from '../../src/rules/content/empty-error-turn.js';
import { missingToolResultName } from '../../src/rules/pairing/missing-tool-result-name.js';
import { invalidToolName } from '../../src/rules/pairing/invalid-tool-name.js';

// Rules that predate provider contracts keep their wording without --provider (tested beside
// them); with a provider named, that provider's contract decides severity and words.

const blankBlock = new Session().user().assistant([text('Here.'), text('')]).jsonl();
testRule(emptyTextBlock, {
  valid: [
    { name: 'OpenAI Chat takes blank text', jsonl: blankBlock, provider: 'openai-chat' },
    { name: 'so does Mistral, as far as is known', jsonl: blankBlock, provider: 'mistral' },
  ],
  invalid: [
    { name: 'no provider named: pi keeps its warning', jsonl: blankBlock, findings: [{ line: 3, severity: 'warning', providerError: /^Anthropic: messages: text content blocks must be non-empty$/ }] },
    { name: 'Anthropic', jsonl: blankBlock, provider: 'anthropic', findings: [{ line: 3, severity: 'error', providerError: /^Anthropic: messages: text content blocks must be non-empty$/ }] },
    {
      name: 'Bedrock words it with the block',
      jsonl: blankBlock,
      provider: 'bedrock',
      findings: [{ line: 3, severity: 'error', providerError: /^Bedrock Converse: The text field in the ContentBlock object at messages\.1\.content\.1 is blank\. Add text to the text field, and try again\.$/ }],
    },
    { name: 'Gemini', jsonl: blankBlock, provider: 'gemini', findings: [{ line: 3, severity: 'error', providerError: /^Gemini: Unable to submit request because it has an empty text parameter\./ }] },
    { name: 'the Responses API: unconfirmed, a warning without text', jsonl: blankBlock, provider: 'openai-responses', findings: [{ line: 3, severity: 'warning' }] },
  ],
});

const blankUser = new Session().user('   ').reply().jsonl();
testRule(blankUserMessage, {
  valid: [],
  invalid: [
    { name: 'no provider named: a warning', jsonl: blankUser, findings: [{ line: 2, severity: 'warning' }] },
    { name: 'OpenAI Chat does not enforce it: the warning stays', jsonl: blankUser, provider: 'openai-chat', findings: [{ line: 2, severity: 'warning' }] },
    {
      name: 'Anthropic: an error in its words',
      jsonl: blankUser,
      provider: 'anthropic',
      findings: [{ line: 2, severity: 'error', providerError: 'Anthropic: messages.0: all messages must have non-empty content except for the optional final assistant message' }],
    },
    { name: 'Gemini', jsonl: blankUser, provider: 'gemini', findings: [{ line: 2, severity: 'error', providerError: /^Gemini: Unable to submit request/ }] },
  ],
});

const emptyFailed = new Session().user().assistant([], 'error').user('again').reply().jsonl();
testRule(emptyErrorTurn, {
  valid: [],
  invalid: [
    { name: 'no provider named: a warning in Bedrock’s words, with the index it would have', jsonl: emptyFailed, findings: [{ line: 3, severity: 'warning', providerError: /^Bedrock Converse: The content field in the Message object at messages\.1 is empty/ }] },
    { name: 'Mistral', jsonl: emptyFailed, provider: 'mistral', findings: [{ line: 3, severity: 'error', providerError: 'Mistral: Assistant message must have either content or tool_calls, but not none.' }] },
    { name: 'Bedrock, with the index it would have', jsonl: emptyFailed, provider: 'bedrock', findings: [{ line: 3, severity: 'error', providerError: /at messages\.1 is empty/ }] },
    { name: 'Anthropic now accepts it mid-conversation: a warning', jsonl: emptyFailed, provider: 'anthropic', findings: [{ line: 3, severity: 'warning' }] },
  ],
});

const noName = new Session().user().calls(call('toolu_01A')).result('toolu_01A', '').reply().jsonl();
testRule(missingToolResultName, {
  valid: [],
  invalid: [
    { name: 'Gemini: an error', jsonl: noName, provider: 'gemini', findings: [{ line: 4, severity: 'error', providerError: /^Gemini: \* GenerateContentRequest\.contents\[2\]\.parts\[0\]\.function_response\.name: Name cannot be empty\.$/ }] },
    { name: 'Anthropic does not need the name: the warning stays', jsonl: noName, provider: 'anthropic', findings: [{ line: 4, severity: 'warning' }] },
  ],
});

const badName = new Session().user().calls(call('toolu_01A', 'read file')).result('toolu_01A', 'read file').reply().jsonl();
testRule(invalidToolName, {
  valid: [],
  invalid: [
    {
      name: 'OpenAI Chat words it for tool_calls',
      jsonl: badName,
      provider: 'openai-chat',
      findings: [{ line: 3, providerError: /^OpenAI Chat: Invalid 'messages\[1\]\.tool_calls\[0\]\.function\.name': string does not match pattern\./ }],
    },
    { name: 'Gemini: confirmed for declarations only, a warning', jsonl: badName, provider: 'gemini', findings: [{ line: 3, severity: 'warning', providerError: /^Gemini: Invalid function name\./ }] },
  ],
});

// A request line names its provider by its shape: without --provider the same rules speak for it.
const chatBlank = `${JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'hi' }] }, { role: 'assistant', content: 'ok' }] })}\n`;
const geminiBlank = `${JSON.stringify({ contents: [{ role: 'user', parts: [{ text: '' }, { text: 'hi' }] }, { role: 'model', parts: [{ text: 'ok' }] }] })}\n`;
testRule(emptyTextBlock, {
  valid: [{ name: 'an OpenAI chat line: OpenAI takes blank text', jsonl: chatBlank }],
  invalid: [
    { name: 'a Gemini line, in Gemini’s words', jsonl: geminiBlank, findings: [{ line: 1, severity: 'error', providerError: /^Gemini: Unable to submit request because it has an empty text parameter\./ }] },
    { name: 'an OpenAI chat line judged for Anthropic', jsonl: chatBlank, provider: 'anthropic', findings: [{ line: 1, severity: 'error', providerError: /^Anthropic: messages: text content blocks must be non-empty$/ }] },
  ],
});
