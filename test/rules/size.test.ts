import { testRule } from '../helpers/rule-tester.js';
import { call, Session, text } from '../helpers/session.js';
import { callTurn, codeText, grownSession, pngBlock } from '../helpers/size-sessions.js';
import { contextWindowExceeded } from '../../src/rules/size/context-window-exceeded.js';
import { contextWindowNear } from '../../src/rules/size/context-window-near.js';
import { imageTooLarge } from '../../src/rules/size/image-too-large.js';
import { requestTooLarge } from '../../src/rules/size/request-too-large.js';
import { stringTooLong } from '../../src/rules/size/string-too-long.js';
import { tooManyToolCalls } from '../../src/rules/size/too-many-tool-calls.js';
import { tooMuchMedia } from '../../src/rules/size/too-much-media.js';

// pi sessions: header (line 1), prompt (2), the call turn with its recorded usage (3), its result (4).
const OPENAI = ['openai', 'openai-completions'] as const;
const GOOGLE = ['google', 'google-generative-ai'] as const;

testRule(contextWindowExceeded, {
  valid: [
    { name: 'well under the window', jsonl: grownSession(100_000, 10_000).jsonl() },
    { name: 'a 1M model takes it', jsonl: grownSession(190_000, 100_000, 'claude-sonnet-4-6').jsonl() },
    { name: 'recorded usage over 200k shows the 1M beta window', jsonl: grownSession(400_000, 10_000).jsonl() },
    { name: 'recorded usage over every known window: the window is unknown', jsonl: grownSession(1_200_000, 100_000, 'claude-opus-4-6').jsonl() },
    { name: 'no provider known (OpenRouter)', jsonl: grownSession(190_000, 400_000, 'x-model', 'openrouter', 'openai-completions').jsonl() },
  ],
  invalid: [
    {
      name: 'Anthropic: recorded 190k, then a 100,000-character result',
      jsonl: grownSession(190_000, 100_000).jsonl(),
      findings: [{ line: 4, message: /over the 200,000-token context window of claude-sonnet-4-5 .*compaction .* cannot run either/, providerError: /^Anthropic: prompt is too long: \d{6} tokens > 200000 maximum$/ }],
    },
    {
      name: 'OpenAI Chat: gpt-4o past 128k',
      jsonl: grownSession(120_000, 50_000, 'gpt-4o', ...OPENAI).jsonl(),
      findings: [{ line: 4, providerError: /^OpenAI Chat: This model's maximum context length is 128000 tokens\. However, your messages resulted in \d{6} tokens\. Please reduce the length of the messages\.$/ }],
    },
    {
      name: 'Gemini: past 1,048,576',
      jsonl: grownSession(1_040_000, 100_000, 'gemini-2.5-pro', ...GOOGLE).jsonl(),
      findings: [{ line: 4, providerError: /^Gemini: The input token count \(\d{7}\) exceeds the maximum number of tokens allowed \(1048576\)\.$/ }],
    },
    {
      name: '--provider bedrock words it as Bedrock',
      jsonl: grownSession(190_000, 100_000).jsonl(),
      provider: 'bedrock',
      findings: [{ line: 4, providerError: 'Bedrock Converse: ValidationException: Input is too long for requested model.' }],
    },
    {
      name: 'a model the table knows, through a server with no contract (OpenRouter): the window without a provider text',
      jsonl: grownSession(190_000, 100_000, 'anthropic/claude-opus-4.5', 'openrouter', 'openai-completions').jsonl(),
      findings: [{ line: 4, message: /200,000-token context window of anthropic\/claude-opus-4\.5 \(claude\)/, providerError: /^$/ }],
    },
    {
      name: "a model the table does not know: the provider's default, a warning",
      jsonl: grownSession(190_000, 100_000, 'claude-next-preview-x').jsonl().replaceAll('claude-next-preview-x', 'mystery-model'),
      findings: [{ line: 4, severity: 'warning', message: /the default of Anthropic \(mystery-model is not in the table\)/ }],
    },
  ],
});

testRule(contextWindowNear, {
  valid: [
    { name: 'at half the window', jsonl: grownSession(100_000, 1_000).jsonl() },
    { name: 'over it is context-window-exceeded, not this', jsonl: grownSession(190_000, 100_000).jsonl() },
  ],
  invalid: [
    { name: 'past 80% of the window', jsonl: grownSession(165_000, 10_000).jsonl(), findings: [{ line: 4, message: /8\d% of the 200,000-token context window/ }] },
    {
      // No usage recorded: everything is estimated, so the margin is wide.
      name: 'under the window by the estimate, over it by its error',
      jsonl: grownSession(0, 540_000).jsonl(),
      findings: [{ line: 4, message: /but up to [\d,]+ by the estimate's error: it may be over the 200,000-token context window/ }],
    },
  ],
});

const screenshots = (count: number, width: number, height: number) => {
  const session = new Session().user('Check the page');
  for (let i = 1; i <= count; i++) {
    callTurn(session, `s${i}`, 1_000);
    session.result(`s${i}`, 'screenshot', { message: { content: [text('screenshot'), pngBlock(width, height)] } });
  }
  return session.reply();
};

testRule(imageTooLarge, {
  valid: [
    { name: 'a small screenshot', jsonl: screenshots(1, 1280, 800).jsonl() },
    { name: '20 images of 2400 px: not yet many', jsonl: screenshots(20, 2400, 1200).jsonl() },
    { name: 'OpenAI Chat takes 6 MB images', jsonl: new Session().user([pngBlock(100, 100, 6_000_000)]).reply().jsonl(), provider: 'openai-chat' },
  ],
  invalid: [
    {
      name: 'Anthropic counts the 5 MB on the base64: a 4 MB PNG in a tool result is over',
      jsonl: new Session().user('Look').calls(call('c1')).result('c1', 'read', { message: { content: [pngBlock(800, 600, 4_000_000)] } }).reply().jsonl(),
      findings: [{ line: 4, pointer: '/message/content/0', message: /base64 text of 5,333,336 characters; 5,242,880 at most/, providerError: /^Anthropic: messages\.2\.content\.0\.tool_result\.content\.0\.image\.source\.base64: image exceeds 5 MB maximum: 5333336 bytes > 5242880 bytes$/ }],
    },
    {
      name: 'over 8000 pixels, in a prompt',
      jsonl: new Session().user([text('Read this'), pngBlock(9000, 1200)]).reply().jsonl(),
      findings: [{ line: 2, message: /9000×1200 pixels; 8,000 a side at most/, providerError: /^Anthropic: messages\.0\.content\.1\.image\.source\.base64\.data: At least one of the image dimensions exceed max allowed size: 8000 pixels$/ }],
    },
    {
      name: 'more than 20 images: 2000 px each at most',
      jsonl: screenshots(21, 2400, 1200).jsonl(),
      findings: Array.from({ length: 21 }, (_, i) => ({ line: 4 + 2 * i, providerError: /for many-image requests: 2000 pixels$/ })),
    },
  ],
});

testRule(tooMuchMedia, {
  valid: [
    { name: '100 images on a 200k model', jsonl: screenshots(100, 200, 100).jsonl() },
    { name: '101 images on a 1M model (600)', jsonl: screenshots(101, 200, 100).jsonl().replaceAll('claude-sonnet-4-5', 'claude-sonnet-4-6') },
  ],
  invalid: [
    {
      name: '101 images on claude-sonnet-4-5, found at the 101st',
      jsonl: screenshots(101, 200, 100).jsonl(),
      findings: [{ line: 4 + 2 * 100, message: /101 images and 0 PDF pages, 101 in all; 100 at most/, providerError: 'Anthropic: Too much media: 0 document pages + 101 images > 100' }],
    },
  ],
});

testRule(requestTooLarge, {
  valid: [
    { name: 'a 3 MB session on Anthropic', jsonl: grownSession(1_000, 3_000_000, 'claude-sonnet-4-6').jsonl() },
    { name: 'no body limit known for OpenAI Chat', jsonl: grownSession(1_000, 3_000_000, 'gpt-4.1', ...OPENAI).jsonl() },
  ],
  invalid: [
    {
      name: "Bedrock's 25,000,000-byte body",
      jsonl: grownSession(1_000, 26_000_000, 'claude-sonnet-4-6').jsonl(),
      provider: 'bedrock',
      findings: [{ line: 4, providerError: /^Bedrock Converse: ValidationException: 1 validation error detected: Value at 'body' failed to satisfy constraint: Member must have length less than or equal to 25000000$/ }],
    },
    {
      name: "Gemini's 1,048,576 bytes, seen once: a warning",
      jsonl: grownSession(1_000, 1_200_000, 'gemini-2.5-pro', ...GOOGLE).jsonl(),
      findings: [{ line: 4, severity: 'warning', providerError: /^Gemini: Maximum request body size 1048576 exceeded, actual body size \d+$/ }],
    },
  ],
});

testRule(stringTooLong, {
  valid: [{ name: 'OpenAI Responses takes 10,485,760 characters', jsonl: grownSession(1_000, 10_000_000, 'gpt-5', 'openai', 'openai-responses').jsonl() }],
  invalid: [
    {
      name: 'a 12,000,000-character tool output on the Responses API',
      jsonl: grownSession(1_000, 12_000_000, 'gpt-5', 'openai', 'openai-responses').jsonl(),
      findings: [{ line: 4, message: /A string of 12,000,000 characters/, providerError: /^OpenAI Responses: Invalid 'input\[\d+\]\.content': string too long\. Expected a string with maximum length 10485760, but got a string with length 12000000 instead\.$/ }],
    },
  ],
});

const fanOut = (count: number) => {
  const calls = Array.from({ length: count }, (_, i) => call(`r${i}`, 'read', { path: `src/f${i}.ts` }));
  const gpt = { message: { model: 'gpt-4.1', provider: 'openai', api: 'openai-completions' } };
  const session = new Session().user('Read them all').assistant([text('Reading.'), ...calls], 'toolUse', gpt);
  for (let i = 0; i < count; i++) session.result(`r${i}`, 'read', { message: { content: [text(codeText(40))] } });
  return session.assistant([text('Read.')], 'stop', gpt);
};

testRule(tooManyToolCalls, {
  valid: [{ name: '128 calls in one message', jsonl: fanOut(128).jsonl() }],
  invalid: [
    {
      name: '131 calls in one message on OpenAI Chat',
      jsonl: fanOut(131).jsonl(),
      findings: [{ line: 3, message: /holds 131 tool calls; 128 at most/, providerError: "OpenAI Chat: Invalid 'messages[1].tool_calls': array too long. Expected an array with maximum length 128, but got an array with length 131 instead." }],
    },
  ],
});
