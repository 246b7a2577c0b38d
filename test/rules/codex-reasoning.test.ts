import { expect, it } from 'vitest';
import { testRule, type InvalidCase, type ValidCase } from '../helpers/rule-tester.js';
import { PROVIDER_IDS, type ProviderId } from '../../src/providers/provider-id.js';
import { foreignSignedReasoning } from '../../src/rules/contract/foreign-signed-reasoning.js';
import { assistant, call, jsonl, line, meta, output, reasoning, resetClock, tokens, user } from '../formats/codex/rollout.js';

/**
 * Codex's `reasoning` items carry `encrypted_content` that only OpenAI's Responses API can
 * verify: replayed to a provider that checks signatures, each one is foreign.
 */
function rollout(): string {
  resetClock();
  return jsonl([
    meta(),
    user('list the files'),
    reasoning(),
    tokens(),
    call('function', 'call_a'),
    output('function', 'call_a'),
    reasoning(),
    assistant('Two files.'),
    user('thanks'),
    assistant('You are welcome.'),
  ]);
}

// Messages as sent: 0 the prompt, 1 reasoning + call, 2 the output, 3 reasoning + reply, 4 the thanks, 5 the last reply.
const anthropicText = (message: number) => new RegExp(`^Anthropic: messages\\.${message}\\.content\\.0: Invalid \`signature\` in \`thinking\` block$`);
const expected: Partial<Record<ProviderId, (message: number) => RegExp>> = {
  anthropic: anthropicText,
  vertex: (message) => new RegExp(`^Anthropic \\(Vertex AI\\): messages\\.${message}\\.content\\.0: Invalid`),
  bedrock: (message) => new RegExp(`^Bedrock Converse: The model returned the following errors: messages\\.${message}\\.content\\.0: Invalid \`signature\``),
  gemini: () => /^Gemini: Corrupted thought signature\.$/,
};

const valid: ValidCase[] = [{ name: 'without --provider: Codex talks to the Responses API that made it', jsonl: rollout() }];
const invalid: InvalidCase[] = [];
for (const provider of PROVIDER_IDS) {
  const text = expected[provider];
  if (text === undefined) valid.push({ name: `${provider}: ${provider === 'openai-responses' ? 'its own reasoning' : 'verifies no reasoning signatures'}`, jsonl: rollout(), provider });
  else invalid.push({ name: `${provider} rejects each replayed reasoning item`, jsonl: rollout(), provider, findings: [{ line: 3, pointer: '/payload', providerError: text(1) }, { line: 7, pointer: '/payload', providerError: text(3) }] });
}
valid.push(
  { name: 'reasoning without encrypted content carries no signature', jsonl: rollout().replace(/"encrypted_content":"[^"]*"/g, '"encrypted_content":null'), provider: 'anthropic' },
  {
    name: 'reasoning a compaction replaced is not replayed',
    jsonl: (() => {
      const before = rollout().trimEnd().split('\n');
      return `${before.join('\n')}\n${JSON.stringify(line('compacted', { message: 'The user listed the files.' }))}\n${JSON.stringify(user('next'))}\n`;
    })(),
    provider: 'anthropic',
  },
);

testRule(foreignSignedReasoning, { valid, invalid });

it('the table covers every provider whose contract names the rule', () => {
  const enforcing = PROVIDER_IDS.filter((provider) => foreignSignedReasoning.meta.providers?.[provider] !== undefined);
  expect(enforcing.filter((provider) => provider !== 'openai-responses').sort()).toEqual(Object.keys(expected).sort());
});
