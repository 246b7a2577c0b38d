// How big each part of a generated session is. Two shapes share one session model (session.mjs):
//
// - `big`: the bench's first shape, lines of several KiB (median ~2.7 KiB) with many 50–200 KiB
//   tool outputs. It stresses bulk JSON parsing; its output must stay byte-identical, so its
//   functions draw from the generator's randomness exactly as they always did.
// - `real`: fitted to the line sizes of real pi / OpenClaw sessions (median ~750 B, p25 ~480 B,
//   p75 ~1.35 KiB, p90 ~2.7 KiB; measured over shared/corpus/pi): many short tool calls and
//   results, many tool rounds per user turn, thinking on some turns, and a few huge tool outputs.
//   Per-entry costs decide speed and memory on these.
//
// Every function takes the Session and returns sizes or content; `len` values are characters.

import { INTL } from './corpora.mjs';

const SHORT_REPLIES = ['yes', 'go ahead', 'continue', 'ok, commit it', 'looks good', 'try again', 'stop', 'why?', 'ja, bitte', 'oui', '好的', 'do it 🚀', 'revert that', 'run the tests'];

export const SHAPES = {
  big: {
    rounds(rng) {
      const rr = rng.next();
      return rr < 0.1 ? 0 : rr < 0.6 ? 1 : rr < 0.85 ? 2 : 3;
    },
    callsPerRound: (rng) => rng.int(1, 4),
    roundThinking: () => true,
    roundText: (s) => (s.rng.chance(0.85) ? s.prose(20, 400) : undefined),
    finalThinking: (rng) => rng.chance(0.7),
    finalText(s) {
      let text = s.prose(60, 3000);
      if (s.rng.chance(0.2)) text += '\n\n```python\n' + s.code(s.rng.int(100, 1500)) + '```\n' + s.rng.pick(INTL);
      return text;
    },
    userText(s) {
      let text = s.prose(30, 600);
      if (s.rng.chance(0.2)) text = s.rng.pick(INTL) + '\n\n' + text;
      if (s.rng.chance(0.15)) text += '\n\n```ts\n' + s.code(s.rng.int(100, 900)) + '```';
      return text;
    },
    thinkingText: (s) => (s.rng.chance(0.1) ? '' : s.prose(80, 2500)),
    signatureLength: (rng) => rng.int(200, 1600),
    bookkeeping: () => undefined,
    minSearchHits: 5,
    // Size class first: results are mostly 200 B–8 KiB, sometimes 50–200 KiB, occasionally an image.
    callSize(rng) {
      const r = rng.next();
      const size = r < 0.015 ? 'image' : r < 0.085 ? 'large' : 'normal';
      return { size, len: size === 'large' ? rng.int(50_000, 200_000) : rng.logUniform(200, 8192) };
    },
  },

  real: {
    // Real sessions run about five tool rounds per user message; a tenth are answered at once.
    rounds: (rng) => (rng.chance(0.1) ? 0 : Math.min(40, 1 + Math.floor(Math.log(1 - rng.next()) / Math.log(0.8)))),
    callsPerRound: (rng) => (rng.chance(0.88) ? 1 : rng.int(2, 4)),
    roundThinking: (rng) => rng.chance(0.2),
    roundText: (s) => (s.rng.chance(0.45) ? s.proseOf(s.rng.logNormal(60, 1.3, 10, 8000)) : undefined),
    finalThinking: (rng) => rng.chance(0.25),
    finalText(s) {
      let text = s.proseOf(s.rng.logNormal(260, 1.1, 20, 12_000));
      if (s.rng.chance(0.1)) text += '\n\n```python\n' + s.code(s.rng.logNormal(400, 0.8, 60, 6000)) + '```';
      return text;
    },
    userText(s) {
      if (s.rng.chance(0.25)) return s.rng.pick(SHORT_REPLIES);
      let text = s.proseOf(s.rng.logNormal(40, 1.2, 4, 6000));
      if (s.rng.chance(0.1)) text = s.rng.pick(INTL) + '\n\n' + text;
      if (s.rng.chance(0.05)) text += '\n\n```ts\n' + s.code(s.rng.logNormal(400, 0.9, 60, 20_000)) + '```';
      return text;
    },
    thinkingText: (s) => (s.rng.chance(0.1) ? '' : s.proseOf(s.rng.logNormal(150, 0.9, 20, 12_000))),
    signatureLength: (rng) => rng.int(150, 500),
    // Settings changes between turns: short lines, about one in twenty of a real session.
    bookkeeping(s) {
      if (s.rng.chance(0.35)) s.entry('thinking_level_change', { thinkingLevel: s.rng.pick(['off', 'low', 'medium', 'high']) });
      if (s.rng.chance(0.15)) s.modelSnapshot();
    },
    minSearchHits: 1,
    // Mostly a few hundred bytes to a few KiB; one result in 250 is a huge dump, one in 1,000 an image.
    callSize(rng) {
      const r = rng.next();
      const size = r < 0.001 ? 'image' : r < 0.005 ? 'large' : 'normal';
      return { size, len: size === 'large' ? rng.logUniform(30_000, 400_000) : rng.logNormal(400, 1.6, 8, 120_000) };
    },
  },
};
