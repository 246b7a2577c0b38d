// `explain` over a home folder of many sessions: from a provider's error text to the file.
//
// The folder is shaped like ~/.openclaw/agents/*/sessions: real-shaped pi sessions (shapes.mjs)
// of 32 KiB – 4 MiB, most of them small (32 KiB × 100^(u²): mean ~390 KiB, so 5,000 files are
// ~2 GB), with modification times spread over days in a shuffled order. The session behind the
// error is the oldest with an unanswered call, so newest-first order does not find it early; its
// error is the provider text scan gives for that call. Cached in bench/.data.
//
//   node bench/explain.mjs <count> [--root folder]   → generate (once) and time one explain run

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from './corpora.mjs';
import { DATA_DIR, ensureSpace, fmtBytes, GENERATOR_VERSIONS, generateSessions } from './generate.mjs';
import { BIN, BenchError, ROOT } from './measure.mjs';

const MIN_BYTES = 32 << 10;
const MAX_BYTES = 4 << 20;
const AGENTS = 8;
const HOME_VERSION = 1; // bump when the layout, sizes or the choice of the target change

/** Returns { dir, files, bytes, target: { file, line, rule, error } }; dir is the agents folder. */
export async function ensureHome(count, { seed = 11, root = DATA_DIR, log = console.log } = {}) {
  const home = path.join(root, `explain-home-${count}-s${seed}-v${HOME_VERSION}.${GENERATOR_VERSIONS.real}`);
  const dir = path.join(home, '.openclaw', 'agents');
  const marker = path.join(home, '.complete');
  if (fs.existsSync(marker)) return { dir, ...JSON.parse(fs.readFileSync(marker, 'utf8')) };
  fs.rmSync(home, { recursive: true, force: true });
  const rng = new Rng(seed);
  const sizes = Array.from({ length: count }, () => Math.min(MAX_BYTES, Math.round(MIN_BYTES * 100 ** (rng.next() ** 2))));
  fs.mkdirSync(home, { recursive: true });
  ensureSpace(home, sizes.reduce((a, b) => a + b, 0) * 1.2);
  log(`generating ${count} pi sessions of 32 KiB – 4 MiB in ${path.basename(home)} ...`);
  const t0 = performance.now();
  const folders = Array.from({ length: AGENTS }, (_, i) => path.join(dir, `agent-${i}`, 'sessions'));
  for (const folder of folders) fs.mkdirSync(folder, { recursive: true });
  const sessions = sizes.map((bytes, i) => ({
    file: path.join(folders[i % AGENTS], `${seed.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}.jsonl`),
    bytes,
  }));
  await generateSessions(sessions, { seed, shape: 'real' });
  // Shuffled ages, a minute apart: the order of the listing says nothing about age.
  const order = sessions.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const start = Date.UTC(2026, 9, 1) / 1000;
  order.forEach((session, age) => fs.utimesSync(sessions[session].file, start + age * 60, start + age * 60));
  const target = findTarget(order.map((i) => sessions[i].file));
  const bytes = sessions.reduce((sum, session) => sum + fs.statSync(session.file).size, 0);
  const meta = { files: count, bytes, target: { ...target, file: path.relative(home, target.file) } };
  fs.writeFileSync(marker, JSON.stringify(meta));
  log(`  ${count} files, ${fmtBytes(bytes)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { dir, ...meta };
}

/** The first of these sessions (oldest first) with an unanswered call, and the provider text scan gives for it. */
function findTarget(files) {
  for (const file of files) {
    const run = spawnSync(process.execPath, [BIN, 'scan', file, '--no-cache', '--reporter', 'json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, CI: '1' } });
    const finding = JSON.parse(run.stdout).files[0]?.findings.find((f) => f.rule === 'missing-tool-result' && f.severity === 'error');
    if (finding !== undefined) return { file, line: finding.line, rule: finding.rule, error: finding.providerError.replace(/^Anthropic: /, '') };
  }
  throw new BenchError('no session with an unanswered call to explain');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? path.resolve(args.splice(at, 2)[1]) : DATA_DIR;
  const count = Number(args[0]);
  if (args.length !== 1 || !Number.isInteger(count) || count < 10) {
    console.error('usage: node bench/explain.mjs <count ≥ 10> [--root folder]');
    process.exit(2);
  }
  fs.mkdirSync(root, { recursive: true });
  const home = await ensureHome(count, { root });
  const { childRunner } = await import('./measure.mjs');
  const { explainRow } = await import('./rows.mjs');
  const tmp = fs.mkdtempSync(path.join(root, 'explain-bench-'));
  try {
    await explainRow(childRunner(tmp), { home, runs: 3, target: 5 });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
