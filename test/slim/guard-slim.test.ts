import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentNamed } from '../../src/io/sessions/index.js';
import { repairSession } from '../../src/run/guard-sessions.js';
import { piSession } from './slim-session.js';

/** `guard --slim` slims a session its agent leaves too big, in place with a backup, after repairing it. */
describe('guard --slim', () => {
  const write = (jsonl: string) => {
    const folder = mkdtempSync(join(tmpdir(), 'td-guard-slim-'));
    const path = join(folder, '2026-03-02T09-00-00-000Z_test-session.jsonl');
    writeFileSync(path, jsonl);
    return { folder, path };
  };

  it('slims a session over its window and keeps a backup of it', async () => {
    const jsonl = piSession(40).jsonl();
    const { folder, path } = write(jsonl);
    const line = await repairSession(path, agentNamed('pi')!, 'discard', true);
    expect(line).toMatch(/slimmed from about [\d,]+ to [\d,]+ tokens$/);
    expect(readFileSync(path, 'utf8').length).toBeLessThan(jsonl.length / 2);
    const backups = readdirSync(folder).filter((name) => name.includes('.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(folder, backups[0]!), 'utf8')).toBe(jsonl);
  });

  it('says nothing about a session that fits, and without --slim writes nothing: it says what is left', async () => {
    const small = write(piSession(2, 20).jsonl());
    expect(await repairSession(small.path, agentNamed('pi')!, 'discard', true)).toBeUndefined();
    const big = write(piSession(40).jsonl());
    expect(await repairSession(big.path, agentNamed('pi')!, 'discard', false)).toMatch(/1 error left \(transcript-doctor scan .*\)$/);
    expect(readdirSync(big.folder).filter((name) => name.includes('.bak-'))).toEqual([]);
  });
});
