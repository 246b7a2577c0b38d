import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Encoder, TranscriptFormat } from '../../src/formats/format.js';
import { formats } from '../../src/formats/registry.js';
import { loadTranscriptFile } from '../../src/pipeline/load-file.js';
import { applyPlan } from '../../src/repair/apply.js';
import { linesByEntries } from '../../src/repair/apply-by-entries.js';
import { planRepair } from '../../src/repair/planner.js';
import type { Transcript } from '../../src/model/transcript.js';
import { sessionFixtures } from '../helpers/session-fixtures.js';

// A pass over a file of one entry per line is made from the entries and a spliced copy of the
// bytes, not by reading the lines again: checked here against the pass that reads them, on
// every session fixture and variants of each (lines dropped, CRLF endings, no last line ending),
// in both modes, with and without fixing endings, written and modelled only.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-by-entries-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file and copies of it changed the ways a real file differs. */
function variants(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const made: string[] = [file];
  const add = (content: string) => {
    const copy = join(dir, `${made.length}-${file.split('/').slice(-2).join('-')}`);
    writeFileSync(copy, content);
    made.push(copy);
  };
  add(text.replace(/\n/g, '\r\n'));
  add(text.replace(/\n$/, ''));
  for (let drop = 0; drop < Math.min(3, lines.length - 1); drop++) add(lines.filter((_, at) => at !== drop).join('\n'));
  return made;
}

async function pass(file: string, transcript: Transcript, format: TranscriptFormat & { encoder: Encoder }, plan: ReturnType<typeof planRepair>, fixEndings: boolean, byEntries: boolean, write: boolean) {
  const chunks: Buffer[] = [];
  const output = await applyPlan(
    { path: file, transcript, format },
    plan,
    write ? async (chunk) => void chunks.push(...(Buffer.isBuffer(chunk) ? [chunk] : chunk).map((piece) => Buffer.from(piece))) : undefined,
    fixEndings,
    byEntries,
  );
  const entries = Array.from({ length: output.entries.length }, (_, i) => output.entries.at(i));
  const { entries: _store, ...rest } = output;
  return { bytes: Buffer.concat(chunks), entries, rest };
}

describe('a pass made from the entries', () => {
  let byEntries = 0;
  let planned = 0;

  it.each(sessionFixtures())('writes and models what reading the lines again gives: %s', async (fixture) => {
    const differ: string[] = [];
    for (const file of variants(fixture)) {
      const transcript = await loadTranscriptFile(file, undefined, false);
      const format = formats.find((candidate) => candidate.name === transcript.format);
      if (format?.encoder === undefined || format.conversationOf !== undefined) continue;
      const known = format as TranscriptFormat & { encoder: Encoder };
      for (const mode of ['discard', 'synthetic'] as const) {
        const plan = planRepair(transcript, { mode, sessionId: 's', file });
        if (linesByEntries(transcript, plan) === undefined) continue;
        byEntries += 1;
        if (plan.skip.size > 0 || plan.edits.size > 0 || plan.after.size > 0) planned += 1;
        for (const fixEndings of [true, false]) {
          const read = await pass(file, transcript, known, plan, fixEndings, false, true);
          const made = await pass(file, transcript, known, plan, fixEndings, true, true);
          const modelled = await pass(file, transcript, known, plan, fixEndings, true, false);
          const where = `${mode}, fixEndings ${fixEndings}, ${file}`;
          if (!made.bytes.equals(read.bytes) || modelled.bytes.length > 0) differ.push(`bytes: ${where}`);
          for (const [name, got] of [['written', made], ['modelled', modelled]] as const) {
            try {
              expect(got.entries).toEqual(read.entries);
              expect(got.rest).toEqual(read.rest);
            } catch {
              differ.push(`${name} model: ${where}`);
            }
          }
        }
      }
    }
    expect(differ).toEqual([]);
  });

  it('took enough files that way, most with something planned, for the comparison to mean something', () => {
    expect(byEntries).toBeGreaterThan(100);
    expect(planned).toBeGreaterThan(50);
  });
});

describe('linesByEntries', () => {
  const load = async (content: string) => {
    const file = join(dir, `lines-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(file, content);
    const transcript = await loadTranscriptFile(file, undefined, false);
    return linesByEntries(transcript, planRepair(transcript, { mode: 'discard', sessionId: 's', file }));
  };
  const header = '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
  const user = (id: string, parent: string | null) => `{"type":"message","id":"${id}","parentId":${parent === null ? 'null' : `"${parent}"`},"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}`;

  it('gives each line its ending when every line is one entry', async () => {
    expect(await load(`${header}\n${user('a', null)}\r\n${user('b', 'a')}`)).toEqual(new Uint8Array([1, 2, 0]));
    expect(await load(`${header}\n${user('a', null)}\n`)).toEqual(new Uint8Array([1, 1]));
  });

  it('leaves any other file to the pass that reads it', async () => {
    // A blank line, a line that is not JSON, two records glued on one line, a byte order mark.
    expect(await load(`${header}\n\n${user('a', null)}\n`)).toBeUndefined();
    expect(await load(`${header}\n{"type":"mess\n${user('a', null)}\n`)).toBeUndefined();
    expect(await load(`${header}\n${user('a', null)}${user('b', 'a')}\n`)).toBeUndefined();
    expect(await load(`\ufeff${header}\n${user('a', null)}\n`)).toBeUndefined();
  });
});
