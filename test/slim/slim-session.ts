import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rewriteInput, type RepairReport } from '../../src/pipeline/rewrite.js';
import { slimRewrite } from '../../src/pipeline/slim-rewrite.js';
import type { SlimOptions } from '../../src/slim/options.js';
import { call, Session, text } from '../helpers/session.js';

/** A long file's text, as a read tool returns it. */
export function longText(lines: number, tag = 'x'): string {
  return Array.from({ length: lines }, (_, i) => `${tag} line ${i}: const value${i} = compute(${i}); // some code`).join('\n');
}

/** A signed thinking block in pi's shape. */
export function thinking(n: number): Record<string, unknown> {
  return { type: 'thinking', thinking: `thinking about step ${n} `.repeat(20), thinkingSignature: `sig-${n}` };
}

/** No recorded usage: the size is all estimated, so a test's figures do not hang on made-up usage. */
export const NO_USAGE = { message: { usage: undefined } };

/** A pi session of `turns` prompts, each reading a long file (with signed thinking) and answering. */
export function piSession(turns: number, resultLines = 2000): Session {
  const session = new Session();
  for (let t = 0; t < turns; t++) {
    session.user(`prompt ${t}`);
    session.assistant([thinking(t), call(`call-${t}`, 'read', { path: `src/file-${t}.ts` })], 'toolUse', NO_USAGE);
    session.result(`call-${t}`, 'read', { message: { content: [text(longText(resultLines, `t${t}`))] } });
    session.assistant([text(`answer ${t}`)], 'stop', NO_USAGE);
  }
  return session;
}

export interface Slimmed {
  input: string;
  output: string;
  report: RepairReport;
  lines: Array<Record<string, any>>;
}

/** Slims JSONL through the real pipeline into a file (as `slim --out` does) and returns what was written. */
export async function slimText(jsonl: string, options: SlimOptions = {}, name = 'session.jsonl'): Promise<Slimmed> {
  const folder = mkdtempSync(join(tmpdir(), 'td-slim-'));
  const input = join(folder, name);
  const output = join(folder, `out-${name}`);
  writeFileSync(input, jsonl);
  const rewrite = slimRewrite(options);
  const report = await rewriteInput(input, undefined, rewrite, { kind: 'file', path: output });
  rewrite.finish!(report);
  const written = readFileSync(output, 'utf8');
  return { input, output: written, report, lines: written.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line)) };
}
