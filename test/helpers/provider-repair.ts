import { Readable } from 'node:stream';
import { scanSource } from '../../src/pipeline/scan.js';
import type { Finding } from '../../src/pipeline/finding.js';
import type { RepairMode } from '../../src/repair/plan.js';
import type { ProviderId } from '../../src/providers/provider-id.js';
import { repairBytes } from './repair-tester.js';

/** `repair --provider <provider> --mode <mode>` of JSONL text through the real pipeline (no provider: as the file talks to). */
export async function repairFor(jsonl: string, provider: ProviderId | undefined, mode: RepairMode): Promise<string> {
  return (await repairBytes(jsonl, mode, 'session.jsonl', provider)).output.toString('utf8');
}

/** `scan --provider <provider>` of JSONL text: every rule's findings. */
export async function scanFor(jsonl: string, provider?: ProviderId): Promise<Finding[]> {
  return (await scanSource('session.jsonl', Readable.from([Buffer.from(jsonl)]), undefined, undefined, { provider })).findings;
}
