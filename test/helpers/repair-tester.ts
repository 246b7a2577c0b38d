import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { repairRewrite, rewriteInput, type RepairReport } from '../../src/pipeline/rewrite.js';
import type { RepairMode } from '../../src/repair/plan.js';
import type { ProviderId } from '../../src/providers/provider-id.js';

export interface Repaired {
  output: string;
  report: RepairReport;
  /** Parsed output lines, for asserting on shapes. */
  lines: Array<Record<string, any>>;
}

/** Repairs JSONL text through the real pipeline and returns what it wrote. */
export async function repairText(jsonl: string | Buffer, mode: RepairMode = 'discard', name = 'session.jsonl'): Promise<Repaired> {
  const { output: bytes, report } = await repairBytes(jsonl, mode, name);
  const output = bytes.toString('utf8');
  const lines = output.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
  return { output, report, lines };
}

/** The same for input whose output need not be JSON line by line (a mutant no format recognises). */
export async function repairBytes(jsonl: string | Buffer, mode: RepairMode = 'discard', name = 'session.jsonl', provider?: ProviderId): Promise<{ output: Buffer; report: RepairReport }> {
  // A name may hold folders (Copilot CLI names a session by its folder: `<id>/events.jsonl`).
  const file = join(mkdtempSync(join(tmpdir(), 'td-repair-')), name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, jsonl);
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  const report = await rewriteInput(file, undefined, { ...repairRewrite(mode), provider }, { kind: 'stream', stream });
  return { output: Buffer.concat(chunks), report };
}

/** The conversation as role(:detail) strings, in file order, to compare shapes compactly. */
export function roles(lines: Array<Record<string, any>>): string[] {
  return lines
    .filter((line) => line.type === 'message')
    .map((line) => {
      const message = line.message;
      if (message.role === 'toolResult') return `result:${message.toolCallId}${message.details?.openclawSyntheticMissingToolResult ? '(synthetic)' : ''}`;
      if (message.role === 'assistant') {
        const calls = (message.content ?? []).filter((b: any) => b.type === 'toolCall').map((b: any) => b.id);
        return calls.length > 0 ? `assistant[${calls.join(',')}]` : 'assistant';
      }
      return message.role;
    });
}

/** True when each entry's parentId is the id of the message/entry line before it (a single chain). */
export function isChain(lines: Array<Record<string, any>>): boolean {
  const entries = lines.filter((line) => line.type !== 'session');
  return entries.every((line, i) => (i === 0 ? line.parentId === null : line.parentId === entries[i - 1]!.id));
}
