import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { startFakeProvider } from './llm/fake-provider.js';

const PASSWORD = 'UrlPassw0rdSecret';
const QUERY_KEY = 'QueryKey1234567';

describe('verify --base-url with credentials in it', () => {
  it('never prints the password or a key of the URL, on stderr or in the report', async () => {
    const server = await startFakeProvider(() => ({ text: 'PASS' }));
    try {
      const url = server.url.replace('http://', `http://admin:${PASSWORD}@`) + `/v1?api_key=${QUERY_KEY}`;
      const cache = mkdtempSync(join(tmpdir(), 'td-verify-cache-'));
      for (const reporter of ['stylish', 'json']) {
        const result = await runCli(['verify', '--all', '--retries', '0', '--model', 'openai/judge', '--base-url', url, '--cache-dir', cache, '-r', reporter, 'fixtures/verify/good-answer.jsonl'], {
          env: { OPENAI_API_KEY: 'sk-test-openai-000' },
        });
        expect(result.stderr).toContain(`sending transcript text to http://admin:***@127.0.0.1:`);
        expect(result.stderr).toContain('api_key=***');
        for (const text of [result.stdout, result.stderr]) {
          expect(text).not.toContain(PASSWORD);
          expect(text).not.toContain(QUERY_KEY);
        }
      }
    } finally {
      await server.close();
    }
  });

  it('masks them in the error about a URL it refuses', async () => {
    const result = await runCli(['verify', '--model', 'openai/judge', '--base-url', `ftp://admin:${PASSWORD}@127.0.0.1/?token=${QUERY_KEY}`, 'fixtures/verify/good-answer.jsonl'], {
      env: { OPENAI_API_KEY: 'sk-test-openai-000' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('transcript-doctor: --base-url must be an http(s) URL, got "ftp://admin:***@127.0.0.1/?token=***"\n');
  });
});
