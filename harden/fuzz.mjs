// Mutation fuzz: seeded byte and line mutations of real-shaped transcripts, repaired in both
// modes. Every error a repair can fix must be gone after one run, and a second run must change
// nothing. Uses the bundled fixtures and, when it is beside the repository, the real corpus.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { repairRewrite, rewriteInput } from '../dist/pipeline/rewrite.js';
import { mutate } from './lib/mutations.mjs';

const ROOT = join(import.meta.dirname, '..');
const RUNS = Number(process.env.HARDEN_FUZZ_RUNS ?? 1600);
/** Another offset gives other mutants of the same files. */
const SEED = Number(process.env.HARDEN_FUZZ_SEED ?? 0);
/** Findings repair leaves for a person on purpose (see each rule's doc). */
const LEFT_BY_DESIGN = new Set(['duplicate-entry-id', 'lost-logical-parent']);

const folders = ['fixtures/pi', 'fixtures/claude-code', 'fixtures/demo', '../shared/corpus/pi', '../shared/corpus/claude-code'];
const sources = folders
  .map((folder) => join(ROOT, folder))
  .filter((folder) => existsSync(folder))
  .flatMap((folder) => readdirSync(folder).filter((name) => name.endsWith('.jsonl')).map((name) => join(folder, name)));

async function repair(file, mode) {
  const chunks = [];
  const stream = new Writable({ write: (chunk, _encoding, done) => (chunks.push(Buffer.from(chunk)), done()) });
  const report = await rewriteInput(file, undefined, repairRewrite(mode), { kind: 'stream', stream });
  return { output: Buffer.concat(chunks), report };
}

const work = mkdtempSync(join(tmpdir(), 'td-harden-fuzz-'));
let errorsLeft = 0;
let byDesign = 0;
let notIdempotent = 0;
let crashed = 0;
let unrecognised = 0;
const failures = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const source = sources[run % sources.length];
    const seed = SEED + run + 1;
    const { bytes, done } = mutate(readFileSync(source), seed, 1 + (seed % 3));
    const mode = run % 2 === 0 ? 'discard' : 'synthetic';
    const input = join(work, `input-${run % 8}.jsonl`);
    writeFileSync(input, bytes);
    const label = `${source.split('/').pop()} seed ${seed} ${done.join('+')} ${mode}`;
    try {
      const first = await repair(input, mode);
      // Nothing left that any format recognises (every line broken): there is no transcript to repair.
      if (first.report.format === null) {
        unrecognised += 1;
        continue;
      }
      const errors = first.report.findings.filter((f) => f.severity === 'error');
      const fixable = errors.filter((f) => !LEFT_BY_DESIGN.has(f.rule));
      byDesign += errors.length - fixable.length;
      if (fixable.length > 0) {
        errorsLeft += 1;
        failures.push(`${label}: left ${fixable.map((f) => `${f.line}:${f.rule}`).join(' ')}`);
      }
      const output = join(work, `output-${run % 8}.jsonl`);
      writeFileSync(output, first.output);
      const second = await repair(output, mode);
      if (second.report.repair.changed) {
        notIdempotent += 1;
        failures.push(`${label}: a second run changed it again`);
      }
    } catch (error) {
      // A clear one-line refusal (UserError) is an answer; anything else is a crash.
      if (error?.name !== 'UserError') {
        crashed += 1;
        failures.push(`${label}: ${error?.stack ?? error}`);
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

for (const failure of failures.slice(0, 20)) console.log(`  ${failure}`);
const ok = (bad) => (bad === 0 ? 'ok' : 'FAIL');
console.log(`harden fuzz: runs ${RUNS} over ${sources.length} files, errors left ${errorsLeft}/${RUNS} ${ok(errorsLeft)} (plus ${byDesign} findings left for a person by design; ${unrecognised} mutants no longer a transcript)`);
console.log(`harden fuzz: idempotent ${RUNS - notIdempotent}/${RUNS} ${ok(notIdempotent)}`);
console.log(`harden fuzz: crashes ${crashed}/${RUNS} ${ok(crashed)}`);
process.exitCode = errorsLeft + notIdempotent + crashed > 0 ? 1 : 0;
