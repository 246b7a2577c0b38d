import { describe, expect, it } from 'vitest';
import { repairFor, scanFor } from '../helpers/provider-repair.js';
import { pairingProblems, userTexts } from '../formats/requests/contract.js';
import type { ProviderId } from '../../src/providers/provider-id.js';

/**
 * A request line's reasoning was signed by the provider its shape talks to. Judged for another
 * provider (--provider), it is foreign: reported with that provider's text, and repair drops it as
 * it does in sessions, the latest assistant turn whole with the results of its calls. Without
 * --provider each line talks to its own shape's provider and nothing changes. OpenAI chat has no
 * signed reasoning to carry.
 */

const line = (value: object) => JSON.stringify(value) + '\n';

const shapes: Array<{ name: string; own: ProviderId; line: string; pointers: string[]; kept: object }> = [
  {
    name: 'Anthropic thinking blocks with a signature',
    own: 'anthropic',
    line: line({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'SIG1' }, { type: 'text', text: 'Hello.' }] },
        { role: 'user', content: 'More' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'plan', signature: 'SIG2' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
      ],
    }),
    pointers: ['/messages/1/content', '/messages/3/content'],
    kept: { system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] }, { role: 'user', content: 'More' }] },
  },
  {
    name: 'Responses reasoning items with encrypted_content',
    own: 'openai-responses',
    line: line({
      input: [
        { role: 'user', content: 'Hi' },
        { type: 'reasoning', summary: [], encrypted_content: 'gAAAA1' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello.' }] },
        { role: 'user', content: 'More' },
        { type: 'reasoning', summary: [], encrypted_content: 'gAAAA2' },
        { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'x' },
      ],
    }),
    pointers: ['/input/1', '/input/4'],
    kept: { input: [{ role: 'user', content: 'Hi' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello.' }] }, { role: 'user', content: 'More' }] },
  },
  {
    name: 'Gemini parts with a thoughtSignature',
    own: 'gemini',
    line: line({
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ thought: true, text: 'hmm', thoughtSignature: 'G1' }, { text: 'Hello.', thoughtSignature: 'G2' }] },
        { role: 'user', parts: [{ text: 'Why?' }] },
        { role: 'model', parts: [{ text: 'Because.', thoughtSignature: 'G3' }] },
        { role: 'user', parts: [{ text: 'More' }] },
        { role: 'model', parts: [{ functionCall: { name: 'read', args: {} }, thoughtSignature: 'G4' }] },
        { role: 'user', parts: [{ functionResponse: { name: 'read', response: { x: 1 } } }] },
      ],
    }),
    pointers: ['/contents/1/parts', '/contents/3/parts', '/contents/5/parts'],
    // Older turns keep their words and lose their signatures and thoughts.
    kept: {
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Hello.' }] },
        { role: 'user', parts: [{ text: 'Why?' }] },
        { role: 'model', parts: [{ text: 'Because.' }] },
        { role: 'user', parts: [{ text: 'More' }] },
      ],
    },
  },
];

const TEXTS: Partial<Record<ProviderId, RegExp>> = {
  anthropic: /^Anthropic: messages\.\d+\.content\.\d+: Invalid `signature` in `thinking` block$/,
  vertex: /^Anthropic \(Vertex AI\): .*Invalid `signature` in `thinking` block/,
  bedrock: /^Bedrock Converse: The model returned the following errors: messages\.\d+\.content\.\d+: Invalid `signature` in `thinking` block$/,
  gemini: /^Gemini: Corrupted thought signature\.$/,
  'openai-responses': /^OpenAI Responses: The encrypted content for item .* could not be verified\./,
};

describe('signed reasoning in a request line, judged for another provider', () => {
  for (const shape of shapes) {
    describe(shape.name, () => {
      it('without --provider: nothing reported, nothing repaired', async () => {
        expect((await scanFor(shape.line)).filter((finding) => finding.rule === 'foreign-signed-reasoning')).toEqual([]);
        for (const mode of ['discard', 'synthetic'] as const) expect(await repairFor(shape.line, undefined, mode)).toBe(shape.line);
        expect((await scanFor(shape.line, shape.own)).filter((finding) => finding.rule === 'foreign-signed-reasoning')).toEqual([]);
      });

      for (const provider of (['anthropic', 'vertex', 'bedrock', 'gemini', 'openai-responses'] as const).filter((id) => id !== shape.own)) {
        it(`--provider ${provider}: each signed turn reported in its words; repair drops the reasoning, the latest turn whole; a second run changes nothing`, async () => {
          const found = (await scanFor(shape.line, provider)).filter((finding) => finding.rule === 'foreign-signed-reasoning');
          expect(found.map((finding) => finding.pointer)).toEqual(shape.pointers);
          for (const finding of found) expect(finding.providerError).toMatch(TEXTS[provider]!);
          expect(found.every((finding) => finding.severity === (provider === 'openai-responses' ? 'warning' : 'error'))).toBe(true);
          for (const mode of ['discard', 'synthetic'] as const) {
            const once = await repairFor(shape.line, provider, mode);
            expect(JSON.parse(once)).toEqual(shape.kept);
            expect(pairingProblems(JSON.parse(once))).toEqual([]);
            expect(userTexts(JSON.parse(once))).toEqual(userTexts(JSON.parse(shape.line)));
            expect((await scanFor(once, provider)).filter((finding) => finding.rule === 'foreign-signed-reasoning' || finding.severity === 'error')).toEqual([]);
            expect(await repairFor(once, provider, mode)).toBe(once);
          }
        });
      }
    });
  }
});
