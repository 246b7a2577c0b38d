import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VerdictCache } from '../../src/verify/llm/cache.js';
import { verifyFile, type JudgeOptions } from '../../src/verify/run.js';
import { DEFAULT_SETTINGS } from '../../src/verify/settings.js';
import { Session } from '../helpers/session.js';
import { startFakeProvider, type FakeProvider } from './llm/fake-provider.js';

let provider: FakeProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function judgeWith(maskTexts: JudgeOptions['maskTexts']) {
  provider = await startFakeProvider(() => ({ text: 'PASS' }));
  const file = join(mkdtempSync(join(tmpdir(), 'td-run-')), 's.jsonl');
  writeFileSync(file, new Session().user('deploy with password=hunter').reply('Done, deployed.').jsonl());
  const options: JudgeOptions = {
    settings: { ...DEFAULT_SETTINGS, verifyAll: true },
    model: { provider: 'openai', model: 'judge', protocol: 'openai', baseUrl: provider.url, apiKey: '' },
    cache: new VerdictCache(undefined),
    rules: [],
    timeoutMs: 5_000,
    maxRetries: 0,
    schedule: (task) => task(),
    beforeFirstRequest: () => undefined,
    maskTexts,
  };
  return { report: await verifyFile(file, file, options), requests: provider.requests };
}

describe('verifyFile masking', () => {
  it('sends nothing when masking throws, and reports an ERROR that says so', async () => {
    const { report, requests } = await judgeWith(async () => {
      throw new Error('detector crashed on password=hunter');
    });
    expect(requests).toHaveLength(0);
    expect(report.verdicts).toEqual([
      { line: 3, verdict: 'ERROR', feedback: 'secrets could not be masked, so nothing was sent (detector crashed on password=[redacted password])', model: 'openai/judge', cached: false },
    ]);
  });

  it('sends nothing when masking answers with the wrong number of texts', async () => {
    const { report, requests } = await judgeWith(async () => ['only one']);
    expect(requests).toHaveLength(0);
    expect(report.verdicts[0]).toMatchObject({ verdict: 'ERROR', feedback: expect.stringMatching(/^secrets could not be masked/) });
  });

  it('sends what the masker returns, by default our patterns and secretlint', async () => {
    const { report, requests } = await judgeWith(undefined);
    expect(report.verdicts[0]).toMatchObject({ verdict: 'PASS' });
    const user = (requests[0]!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'user')!.content;
    expect(user).toContain('deploy with password=[redacted password]');
    expect(user).not.toContain('hunter');
  });
});
