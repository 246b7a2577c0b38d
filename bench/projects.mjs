// A folder shaped like a real ~/.claude/projects: project folders of Claude Code sessions, from
// 20 KiB to 2 MiB each, most of them small (sizes are 20 KiB × 100^(u²) for uniform u: median
// ~63 KiB, mean ~240 KiB). Sessions are real-shaped (shapes.mjs), generated as pi sessions and
// converted (to-claude-code.mjs --real). Cached in bench/.data like the big files.
//
//   node bench/projects.mjs <count> [--root folder]     → the folder and its halves, as JSON

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from './corpora.mjs';
import { DATA_DIR, ensureSpace, GENERATOR_VERSIONS, generateSessions } from './generate.mjs';
import { toClaudeCode } from './to-claude-code.mjs';

const MIN_BYTES = 20 << 10;
const MAX_BYTES = 2 << 20;
/** Claude Code lines of a real-shaped conversation take about this much more room than pi's. */
export const CLAUDE_CODE_GROWTH = 1.9;
/** A session ends after a whole turn, which overshoots its target by about half a turn on average. */
const HALF_TURN_BYTES = 8 << 10;
const SESSIONS_PER_PROJECT = 50;
const PROJECTS_VERSION = 1; // bump when the layout or the size distribution changes

/**
 * Returns { dir, files, bytes, halves }: halves are two lists of project folders holding about
 * half the bytes each, for two processes that split the folder between them.
 */
export async function ensureProjects(count, { seed = 7, root = DATA_DIR, log = console.log } = {}) {
  const dir = path.join(root, `projects-${count}-s${seed}-v${PROJECTS_VERSION}.${GENERATOR_VERSIONS.real}`);
  const marker = path.join(dir, '.complete');
  if (fs.existsSync(marker)) return { dir, ...JSON.parse(fs.readFileSync(marker, 'utf8')) };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const rng = new Rng(seed);
  const sizes = Array.from({ length: count }, () => Math.min(MAX_BYTES, Math.round(MIN_BYTES * 100 ** (rng.next() ** 2))));
  ensureSpace(dir, sizes.reduce((a, b) => a + b, 0) * 2);
  log(`generating ${count} Claude Code sessions of 20 KiB – 2 MiB in ${path.basename(dir)} ...`);
  const t0 = performance.now();
  const projects = Array.from({ length: Math.max(2, Math.ceil(count / SESSIONS_PER_PROJECT)) }, (_, i) => `-home-alice-src-project-${String(i).padStart(3, '0')}`);
  for (const project of projects) fs.mkdirSync(path.join(dir, project));
  const scratch = fs.mkdtempSync(path.join(root, 'projects-scratch-'));
  try {
    const sessions = sizes.map((bytes, i) => ({ file: path.join(scratch, `${i}.jsonl`), bytes: Math.max(12 << 10, Math.round(bytes / CLAUDE_CODE_GROWTH) - HALF_TURN_BYTES) }));
    await generateSessions(sessions, { seed, shape: 'real' });
    for (const [i, session] of sessions.entries()) {
      const uuid = `${seed.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
      await toClaudeCode(session.file, path.join(dir, projects[i % projects.length], `${uuid}.jsonl`), { real: true });
      fs.rmSync(session.file);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const perProject = projects.map((project) => {
    const folder = path.join(dir, project);
    return { project, bytes: fs.readdirSync(folder).reduce((sum, name) => sum + fs.statSync(path.join(folder, name)).size, 0) };
  });
  // Largest first, each to the lighter half: two halves within one project of each other.
  const halves = [{ projects: [], bytes: 0 }, { projects: [], bytes: 0 }];
  for (const { project, bytes } of [...perProject].sort((a, b) => b.bytes - a.bytes)) {
    const half = halves[0].bytes <= halves[1].bytes ? halves[0] : halves[1];
    half.projects.push(project);
    half.bytes += bytes;
  }
  const meta = { files: count, bytes: halves[0].bytes + halves[1].bytes, halves };
  fs.writeFileSync(marker, JSON.stringify(meta));
  log(`  ${count} files in ${projects.length} projects, ${(meta.bytes / 2 ** 20).toFixed(1)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { dir, ...meta };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? path.resolve(args.splice(at, 2)[1]) : DATA_DIR;
  const count = Number(args[0]);
  if (args.length !== 1 || !Number.isInteger(count) || count < 2) {
    console.error('usage: node bench/projects.mjs <count ≥ 2> [--root folder]');
    process.exit(2);
  }
  fs.mkdirSync(root, { recursive: true });
  console.log(JSON.stringify(await ensureProjects(count, { root, log: () => {} })));
}
