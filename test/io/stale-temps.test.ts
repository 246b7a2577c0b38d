import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { beginInPlace } from '../../src/io/safe-write.js';
import { tempPathFor } from '../../src/io/stale-temps.js';
import { deadPid } from '../helpers/processes.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-stale-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});


it('temp names say which program and process they belong to', () => {
  const path = tempPathFor(join(dir, 'session.jsonl'), 'hold');
  expect(basename(path)).toMatch(new RegExp(`^\\.session\\.jsonl\\.transcript-doctor-${process.pid}-[0-9a-f]{12}\\.hold$`));
  expect(basename(tempPathFor(join(dir, `${'x'.repeat(250)}.jsonl`), 'tmp')).length).toBeLessThan(255);
});

it('a run on a file sweeps the temp files killed runs left beside it, and only those', async () => {
  const dead = await deadPid();
  const stale = [
    `.session.jsonl.transcript-doctor-${dead}-0123456789ab.tmp`,
    `.session.jsonl.transcript-doctor-${dead}-0123456789ab.hold`,
    `.other.jsonl.transcript-doctor-${dead}-00ff00ff00ff.tmp`,
    `.session.jsonl.td-${dead}-abcdefabcdef.tmp`,
  ];
  const kept = [
    'session.jsonl',
    // Another run at work: its process is alive.
    `.session.jsonl.transcript-doctor-${process.ppid}-0123456789ab.tmp`,
    // Not ours.
    `.session.jsonl.other-${dead}-0123456789ab.tmp`,
    `session.jsonl.transcript-doctor-${dead}-0123456789ab.tmp.notes`,
  ];
  for (const name of [...stale, ...kept]) await writeFile(join(dir, name), 'x\n');
  await beginInPlace(join(dir, 'session.jsonl'), false);
  expect((await readdir(dir)).sort()).toEqual([...kept].sort());
});
