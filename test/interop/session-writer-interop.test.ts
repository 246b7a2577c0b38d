import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessionWriter, type AbortMode } from '../../src/session-writer/session-writer.js';
import { sessionLines } from '../session-writer/lines.mjs';
import { piContextCheck } from './pi-context.js';

/** What pi itself builds from a session the writer wrote through aborts, a prompt mid-tool and bookkeeping. */
describe('a session written by openSessionWriter, loaded by pi', () => {
  it.each<AbortMode>(['discard', 'synthetic'])('%s: every call in the context pi builds is answered', async (abortMode) => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-writer-pi-')), 'session.jsonl');
    const writer = await openSessionWriter(file, { format: 'pi', abortMode });
    const s = sessionLines('pi');
    const append = async (...lines: Array<object | object[]>) => {
      for (const line of lines.flat()) await writer.append(line);
    };
    await append(s.header()!, s.user('read the config'), s.assistantLines([['call_p1', 'read'], ['call_p2', 'read']]), s.aside(), s.result('call_p1', 'read'), s.result('call_p2', 'read'), s.reply('Read both.'));
    await append(s.user('now run it'), s.assistantLines([['call_p3', 'exec']]), s.aside());
    await writer.abort('rate_limit');
    await append(s.user('again'), s.assistantLines([['call_p4', 'exec']]), s.user('stop, do something else'));
    await append(s.assistantLines([['call_p5', 'read']]), s.result('call_p5', 'read'), s.reply('Done.'));
    await writer.close();

    const check = await piContextCheck(readFileSync(file, 'utf8'), { aliases: false });
    expect(check.unansweredCalls).toEqual([]);
    expect(check.orphanResults).toEqual([]);
    // The whole conversation is on the path pi walks from the last entry: nothing was cut off by a dropped parent.
    const answered = abortMode === 'synthetic' ? ['assistant', 'toolResult'] : [];
    expect(check.roles).toEqual([
      'user', 'assistant', 'toolResult', 'toolResult', 'assistant',
      'user', ...answered, 'user', ...answered, 'user',
      'assistant', 'toolResult', 'assistant',
    ]);
  });
});
