import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openSessionWriter } from '../../src/session-writer/session-writer.js';
import { sessionLines } from './lines.mjs';

const READER = join(import.meta.dirname, 'reader-child.mjs');

interface ReaderReport {
  polls: number;
  grew: number;
  halfPairs: Array<{ bytes: number; open: string[] }>;
}

/** Results of this size put many pairs across a 4 KiB page boundary, where a plain append is seen in parts. */
const RESULT_BYTES = 1500;

describe('openSessionWriter with a reader polling the file', () => {
  it.each(['pi', 'claude-code', 'codex'])('%s: the reader never sees a call without its results', async (format) => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-writer-readers-')), 'session.jsonl');
    const reader = spawn(process.execPath, [READER, file, format], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    reader.stdout.on('data', (chunk) => (output += chunk));
    const exited = new Promise<void>((resolve) => reader.on('exit', () => resolve()));
    await new Promise((resolve) => reader.stdout.once('data', resolve));

    const writer = await openSessionWriter(file, { format });
    const session = sessionLines(format);
    const header = session.header();
    if (header !== undefined) await writer.append(header);
    const resultText = 'x'.repeat(RESULT_BYTES);
    for (let turn = 0; turn < 150; turn++) {
      await writer.append(session.user(`turn ${turn}`));
      const calls: Array<[string, string]> = [[`call_${turn}_a`, 'read'], [`call_${turn}_b`, 'read']];
      for (const line of session.assistantLines(calls)) await writer.append(line);
      for (const [id, name] of calls) {
        // The reader gets its turn while the pair is held.
        await tick();
        await writer.append(withOutput(session.result(id, name), resultText));
      }
    }
    await writer.close();
    writeFileSync(`${file}.done`, '');
    await exited;

    const report = JSON.parse(output.trim().split('\n').at(-1)!) as ReaderReport;
    expect(report.halfPairs).toEqual([]);
    // It read while the file grew, many times over.
    expect(report.grew).toBeGreaterThan(30);
  }, 60_000);
});

/** The result line with a longer output, wherever its format keeps it. */
function withOutput(line: object, text: string): object {
  const value = structuredClone(line) as { message?: { content: unknown }; payload?: { output: string } };
  const content = value.message?.content;
  if (Array.isArray(content)) {
    const block = content[0] as { text?: string; content?: string };
    if (block.text !== undefined) block.text = text;
    else block.content = text;
  } else if (value.payload !== undefined) value.payload.output = text;
  return value;
}
