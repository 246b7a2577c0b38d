import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadTranscriptFile } from '../../src/pipeline/load-file.js';
import { loadTranscript } from '../../src/pipeline/load-transcript.js';
import type { Transcript } from '../../src/model/transcript.js';

const dir = mkdtempSync(join(tmpdir(), 'td-load-'));
const line = (id: string, text: string) =>
  JSON.stringify({ type: 'message', id, parentId: null, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: [{ type: 'text', text }] } });
const header = JSON.stringify({ type: 'session', version: 3, id: 'load-test', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/project' });

const summary = (transcript: Transcript) => ({
  lines: transcript.lines,
  bytes: transcript.bytes,
  lastLine: transcript.lastLine,
  issues: transcript.lineIssues,
  entries: transcript.entries.toArray().map((entry) => [entry.line, entry.id, entry.offset, entry.byteLength]),
});

describe('loadTranscriptFile on small files', () => {
  it('reads each file alone, though the read buffer is reused from file to file', async () => {
    const big = join(dir, 'big.jsonl');
    const small = join(dir, 'small.jsonl');
    // The big file first: what is left of it in the buffer must not show in the small one.
    const bigText = `${header}\n${Array.from({ length: 50 }, (_, i) => line(`b${i}`, 'x'.repeat(4000))).join('\n')}\n`;
    const smallText = `${header}\n${line('s1', 'hello')}\n{"torn`; // ends mid-line, where the big file went on
    writeFileSync(big, bigText);
    writeFileSync(small, smallText);
    for (const [path, text] of [[big, bigText], [small, smallText], [big, bigText]] as const) {
      const fromFile = await loadTranscriptFile(path);
      const fromStream = await loadTranscript(Readable.from([Buffer.from(text)]));
      expect(summary(fromFile)).toEqual(summary(fromStream));
    }
    const smallOne = await loadTranscriptFile(small);
    expect(smallOne.bytes).toBe(Buffer.byteLength(smallText));
    expect(smallOne.lineIssues.map((issue) => issue.kind)).toEqual(['torn']);
  });
});
