import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { repairRewrite, rewriteInput } from '../../src/pipeline/rewrite.js';
import { scanSource } from '../../src/pipeline/scan.js';
import type { Finding } from '../../src/pipeline/finding.js';
import type { RepairMode } from '../../src/repair/plan.js';
import type { ProviderId } from '../../src/providers/provider-id.js';

/** `repair --provider <provider> --mode <mode>` of JSONL text through the real pipeline (no provider: as the file talks to). */
export async function repairFor(jsonl: string, provider: ProviderId | undefined, mode: RepairMode): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'td-provider-repair-')), 'session.jsonl');
  writeFileSync(file, jsonl);
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await rewriteInput(file, undefined, { ...repairRewrite(mode), provider }, { kind: 'stream', stream });
  return Buffer.concat(chunks).toString('utf8');
}

/** `scan --provider <provider>` of JSONL text: every rule's findings. */
export async function scanFor(jsonl: string, provider?: ProviderId): Promise<Finding[]> {
  return (await scanSource('session.jsonl', Readable.from([Buffer.from(jsonl)]), undefined, undefined, { provider })).findings;
}
