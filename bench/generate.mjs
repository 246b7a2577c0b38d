// Deterministic generator of large, realistic pi v3 / OpenClaw session transcripts
// (see /work/shared/reference/openclaw.md §2, §4) for benchmarking the scanner.
//
//   node bench/generate.mjs <path> <size> [--seed N] [--shape big|real]      size: 100MB, 1GB, 512KB ...
//
// Two shapes (shapes.mjs): `real` has the line sizes of real sessions (median ~750 B), `big` the
// bench's original multi-KiB lines. Sizes use binary units everywhere in the bench:
// 1 MB = 1 MiB = 2^20 bytes. Lines are written in multi-MiB chunks.

import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { makeCorpora, Rng } from './corpora.mjs';
import { LineWriter, Session } from './session.mjs';
import { SHAPES } from './shapes.mjs';

// Bump a shape's version whenever its output changes, so cached files in bench/.data are rebuilt.
export const GENERATOR_VERSIONS = { big: 2, real: 2 };
/** The big shape's version, which older cache names carry. */
export const GENERATOR_VERSION = GENERATOR_VERSIONS.big;
const PREFIX = { big: 'session', real: 'real' };

export const DATA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '.data');

function shapeOf(name) {
  const shape = SHAPES[name];
  if (!shape) throw new Error(`unknown shape "${name}" (big or real)`);
  return shape;
}

/** One session of at least targetBytes, written to file, drawing from rng and corpora. */
async function writeSession(file, targetBytes, rng, corpora, shape) {
  const stream = fs.createWriteStream(file, { highWaterMark: 16 << 20 });
  const w = new LineWriter(stream);
  const s = new Session(rng, w, corpora, shape);
  s.header();
  s.turn();
  s.entry('session_info', { name: 'Refactor the parser — 日本語 notes 🚀' });
  // Stop only after a clean turn, so every problem is followed by a user turn.
  while (w.approxBytes < targetBytes || s.turns[s.turns.length - 1].problem) {
    s.maybeBranch(); // before betweenTurns, so bookkeeping entries never sit on an abandoned branch
    s.betweenTurns();
    s.turn();
    await w.maybeFlush();
  }
  await w.maybeFlush(true);
  stream.end();
  await once(stream, 'finish');
  return { bytes: w.bytes, lines: w.lines, stats: s.stats };
}

/** Write a transcript of at least targetBytes to file. Returns stats. */
export async function generateTranscript(file, targetBytes, { seed = 1, shape = 'big' } = {}) {
  const t0 = performance.now();
  const rng = new Rng(seed);
  const { bytes, lines, stats } = await writeSession(file, targetBytes, rng, makeCorpora(rng), shapeOf(shape));
  const ms = performance.now() - t0;
  return {
    generatorVersion: GENERATOR_VERSIONS[shape], shape, seed, targetBytes, bytes, lines, ms: Math.round(ms),
    mibPerSec: Math.round((bytes / 2 ** 20 / (ms / 1000)) * 10) / 10, ...stats,
  };
}

/** Write one session per { file, bytes }, all from one seed (the corpora are built once). */
export async function generateSessions(sessions, { seed = 1, shape = 'real' } = {}) {
  const rng = new Rng(seed);
  const corpora = makeCorpora(rng);
  let bytes = 0;
  for (const session of sessions) bytes += (await writeSession(session.file, session.bytes, rng, corpora, shapeOf(shape))).bytes;
  return { files: sessions.length, bytes };
}

/** Parse "128MB", "1GB", "512KiB", "1000000" → bytes (binary units). */
export function parseSize(str) {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]i?b?)?$/i.exec(String(str).trim());
  if (!m) throw new Error(`bad size "${str}" (try 100MB, 1GB)`);
  const mult = { k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 }[(m[2] ?? ' ')[0].toLowerCase()] ?? 1;
  return Math.round(Number(m[1]) * mult);
}

/** Files of an older generator version (and the Claude Code twins converted from them) are dead weight, up to GBs each. */
function removeStale(dir) {
  for (const f of fs.readdirSync(dir)) {
    const m = /^(session|real)-.*-v(\d+)\./.exec(f);
    if (!m) continue;
    const shape = m[1] === 'session' ? 'big' : 'real';
    if (Number(m[2]) !== GENERATOR_VERSIONS[shape]) fs.rmSync(path.join(dir, f), { force: true });
  }
}

export function ensureSpace(dir, bytes) {
  const { bavail, bsize } = fs.statfsSync(dir);
  if (bavail * bsize < bytes * 1.1 + (512 << 20)) {
    throw new Error(`not enough disk space in ${dir} for ${fmtBytes(bytes)} of transcripts (${fmtBytes(bavail * bsize)} free)`);
  }
}

/**
 * Return a cached transcript of targetBytes for seed and shape, generating it if needed.
 * Cache key: shape + size + seed + the shape's version. A .meta.json sidecar holds the
 * stats (including the injected problem counts) and marks the file complete.
 */
export async function ensureTranscript(targetBytes, { seed = 1, shape = 'big', dir = DATA_DIR, log = console.log } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  const base = `${PREFIX[shape]}-${targetBytes}-s${seed}-v${GENERATOR_VERSIONS[shape]}`;
  const file = path.join(dir, `${base}.jsonl`);
  const metaFile = path.join(dir, `${base}.meta.json`);
  try {
    const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
    if (fs.statSync(file).size === meta.bytes) return { file, meta, cached: true };
  } catch { /* missing or stale: regenerate */ }
  removeStale(dir);
  ensureSpace(dir, targetBytes);
  log(`generating ${fmtBytes(targetBytes)} ${shape}-shaped transcript (seed ${seed}) → ${path.relative(process.cwd(), file)} ...`);
  const tmp = `${file}.tmp-${process.pid}`;
  const meta = await generateTranscript(tmp, targetBytes, { seed, shape });
  fs.renameSync(tmp, file);
  fs.writeFileSync(metaFile, JSON.stringify(meta, null, 2) + '\n');
  log(`  ${meta.lines} lines, ${fmtBytes(meta.bytes)} in ${(meta.ms / 1000).toFixed(1)} s (${meta.mibPerSec} MiB/s)`);
  return { file, meta, cached: false };
}

export function fmtBytes(n) {
  return n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(2)} GiB` : n >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

// ---------------------------------------------------------------- CLI
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    return at >= 0 ? args.splice(at, 2)[1] : fallback;
  };
  const seed = Number(option('--seed', '1'));
  const shape = option('--shape', 'big');
  if (args.length !== 2 || !Number.isInteger(seed) || !SHAPES[shape]) {
    console.error('usage: node bench/generate.mjs <path> <size e.g. 100MB|1GB> [--seed N] [--shape big|real]   (MB = 2^20 bytes)');
    process.exit(2);
  }
  const stats = await generateTranscript(args[0], parseSize(args[1]), { seed, shape });
  console.log(JSON.stringify(stats, null, 2));
}
