import { describe, expect, it } from 'vitest';
import { maskForJudge } from '../../../src/verify/llm/mask-for-judge.js';
import { secretlint, type Detection } from '../../../src/verify/llm/secretlint.js';

/** A detector that reports every occurrence of the given substrings, as secretlint would. */
const finds =
  (...needles: string[]) =>
  async (text: string): Promise<Detection[]> =>
    needles.flatMap((needle) => [...text.matchAll(new RegExp(needle, 'g'))].map((match) => ({ start: match.index, end: match.index + needle.length, kind: 'test secret' })));

// Built at run time so that secret scanners do not flag this file.
const xoxb = ['xoxb', '123456789012', '1234567890123', 'aB3dE5fG7hJ9kLmN1pQrS2tU'].join('-');

describe('maskForJudge', () => {
  it('masks what the detector finds, widened to the whole token, in each text', async () => {
    const masked = await maskForJudge(['key: zzQWERTYzz9 end', 'nothing here', 'also zzQWERTYzz9'], finds('QWERTY'));
    expect(masked).toEqual(['key: [redacted test secret] end', 'nothing here', 'also [redacted test secret]']);
  });

  it('runs our patterns first and the detector once over all texts', async () => {
    const seen: string[] = [];
    const masked = await maskForJudge(['password=hunter', 'plain'], async (text) => {
      seen.push(text);
      return [];
    });
    expect(masked).toEqual(['password=[redacted password]', 'plain']);
    expect(seen).toEqual(['password=[redacted password]\n\nplain']);
  });

  it('merges overlapping finds and keeps the text between separate ones', async () => {
    const detect = async (): Promise<Detection[]> => [
      { start: 2, end: 6, kind: 'a' },
      { start: 4, end: 9, kind: 'b' },
      { start: 14, end: 16, kind: 'c' },
    ];
    expect(await maskForJudge(['x abcdefghi y jk z'], detect)).toEqual(['x [redacted a] y [redacted c] z']);
  });

  it('clips a find that crosses from one text into the next to each of them', async () => {
    const detect = async (text: string): Promise<Detection[]> => [{ start: text.indexOf('tail'), end: text.indexOf('head') + 4, kind: 'k' }];
    expect(await maskForJudge(['keep tail', 'head keep'], detect)).toEqual(['keep [redacted k]', '[redacted k] keep']);
  });

  it('fails closed: a detector that throws or reports an impossible range rejects', async () => {
    await expect(maskForJudge(['text'], async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(maskForJudge(['text'], async () => [{ start: 2, end: 99, kind: 'k' }])).rejects.toThrow(/impossible range/);
    await expect(maskForJudge(['text'], async () => [{ start: Number.NaN, end: 1, kind: 'k' }])).rejects.toThrow(/impossible range/);
  });

  it('handles no texts and empty texts', async () => {
    expect(await maskForJudge([])).toEqual([]);
    expect(await maskForJudge(['', ''])).toEqual(['', '']);
  });
});

describe('secretlint', () => {
  it('finds a key that a "secretlint-disable" comment in the transcript tries to hide', async () => {
    const text = `// secretlint-disable\nconst slack = "${xoxb}";\n// secretlint-enable`;
    const [detection] = await secretlint(text);
    expect(detection?.kind).toBe('slack token');
    expect(text.slice(detection!.start, detection!.end)).toContain('xoxb-');
  });

  it('finds nothing in ordinary text', async () => {
    expect(await secretlint('The build passed; see https://example.com/docs for details.')).toEqual([]);
  });
});
