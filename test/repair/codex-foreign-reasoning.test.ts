import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../src/providers/provider-id.js';
import { contractProblems, userTexts } from '../helpers/provider-check.js';
import { repairFor, scanFor } from '../helpers/provider-repair.js';
import { assistant, call, jsonl, meta, output, reasoning, resetClock, tokens, turnContext, user, type Line } from '../formats/codex/rollout.js';

/**
 * `repair --provider X` of a Codex rollout for a provider that verifies reasoning signatures: the
 * Responses API's encrypted reasoning goes, each item as a line; the latest response goes whole
 * with the outputs of its calls, as for any signed latest turn. The rollout stays one Codex resumes.
 */

const SIGNATURE_CHECKERS: ProviderId[] = ['anthropic', 'vertex', 'bedrock', 'gemini'];

function numbered(lines: Line[]): Line[] {
  return lines.map((value, i) => ({ timestamp: value.timestamp, ordinal: i, type: value.type, payload: value.payload }));
}

/** Two responses with reasoning, the last one a reply. */
function replyLast(): Line[] {
  resetClock();
  return [meta(), turnContext(), user('list the files'), reasoning(), tokens(), call('function', 'call_a'), output('function', 'call_a'), reasoning(), assistant('Two files.'), user('thanks'), reasoning(), assistant('You are welcome.')];
}

/** The latest response reasons and calls two tools; their outputs end the rollout. */
function callsLast(): Line[] {
  resetClock();
  return [meta(), user('list the files'), reasoning(), assistant('Looking.'), user('go on'), reasoning(), call('custom', 'call_b'), call('function', 'call_c'), tokens(), output('custom', 'call_b'), output('function', 'call_c')];
}

/** A response whose call was never answered, with reasoning before it. */
function unanswered(): Line[] {
  resetClock();
  return [meta(), user('list the files'), reasoning(), call('function', 'call_a'), user('stop'), reasoning(), assistant('Stopped.'), user('ok')];
}

const rollouts: Array<[string, () => Line[], { kept: string[]; gone: string[] }]> = [
  ['a reply ends it', replyLast, { kept: ['Two files.', 'call_a'], gone: ['You are welcome.'] }],
  ['calls and their outputs end it', callsLast, { kept: ['Looking.'], gone: ['call_b', 'call_c'] }],
  ['an unanswered call in an earlier response', unanswered, { kept: [], gone: ['Stopped.'] }],
];

describe('Codex encrypted reasoning, repaired for a provider that verifies signatures', () => {
  for (const [name, build, { kept, gone }] of rollouts) {
    for (const pages of [false, true]) {
      const input = jsonl(pages ? numbered(build()) : build());
      for (const mode of ['discard', 'synthetic'] as const) {
        it(`${name}${pages ? ', paginated' : ''}, ${mode}`, async () => {
          for (const provider of SIGNATURE_CHECKERS) {
            expect(contractProblems(input, provider), provider).toContainEqual(expect.stringMatching(/reasoning signed by openai-responses$/));
            const once = await repairFor(input, provider, mode);
            expect(contractProblems(once, provider), provider).toEqual([]);
            expect(once).not.toContain('encrypted_content');
            for (const text of kept) expect(once, `${provider} keeps ${text}`).toContain(text);
            for (const text of gone) expect(once, `${provider} drops ${text}`).not.toContain(text);
            expect(userTexts(once), provider).toEqual(userTexts(input));
            expect((await scanFor(once, provider)).filter((finding) => finding.severity === 'error'), provider).toEqual([]);
            // Still a rollout Codex resumes: nothing its own scan reports, its lines numbered in order.
            expect(await scanFor(once), provider).toEqual([]);
            const lines = once.trim().split('\n').map((value) => JSON.parse(value) as Line);
            if (pages) expect(lines.map((value) => value.ordinal), provider).toEqual(lines.map((_value, i) => i));
            expect(await repairFor(once, provider, mode), `${provider}: a second run changes nothing`).toBe(once);
          }
        });
      }
    }
  }

  it('keeps every line it does not drop byte for byte (unnumbered rollouts)', async () => {
    const input = jsonl(replyLast());
    const once = await repairFor(input, 'anthropic', 'discard');
    const before = input.trim().split('\n');
    const after = once.trim().split('\n');
    expect(after.every((value) => before.includes(value))).toBe(true);
    // The two earlier reasoning items and the whole last response (its reasoning and reply) go.
    expect(before.length - after.length).toBe(4);
  });

  it('without --provider, or for the Responses API, encrypted reasoning changes nothing: the same bytes as with no reasoning signed', async () => {
    for (const build of [replyLast, callsLast, unanswered]) {
      const input = jsonl(build());
      const plain = input.replace(/"encrypted_content":"[^"]*"/g, '"encrypted_content":null');
      for (const provider of [undefined, 'openai-responses', 'openai-chat', 'mistral'] as const) {
        for (const mode of ['discard', 'synthetic'] as const) {
          const signed = await repairFor(input, provider, mode);
          expect(signed.replace(/"encrypted_content":"[^"]*"/g, '"encrypted_content":null'), `${String(provider)} ${mode}`).toBe(await repairFor(plain, provider, mode));
        }
        expect((await scanFor(input, provider)).filter((finding) => finding.rule === 'foreign-signed-reasoning')).toEqual([]);
      }
    }
  });
});
