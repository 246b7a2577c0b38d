import { Readable } from 'node:stream';
import { scanSource } from '../../src/pipeline/scan.js';

/** Scans JSONL text through the real pipeline and returns its findings. */
export async function scanText(jsonl: string) {
  return (await scanSource('session.jsonl', Readable.from([Buffer.from(jsonl)]))).findings;
}
