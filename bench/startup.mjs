// Start-up cost: one small session scanned by the CLI against a bare `node -e 0`, interleaved in
// the same run so both see the same machine load. The unbundled CLI (tsc's dist/ modules, as
// before the bundle) runs beside them for comparison.
//
//   node bench/startup.mjs [runs] [bin]        → one JSON line
//
// Wall time is the target (what a user waits for): the median of many runs. CPU time (user + sys
// of the children, from /proc/self/stat) is printed beside it because it barely moves with the
// load of a shared machine, while wall time does.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, childrenUsage, meanCpuMs } from './measure.mjs';

export const STARTUP_FILE = 'fixtures/demo/a72cb7ff-ffa6-4f12-993c-b24cb1219e7b.jsonl';
const childrenCpuMs = () => childrenUsage()?.cpuMs ?? null;

function timed(args) {
  const cpu0 = childrenCpuMs();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu1 = childrenCpuMs();
  return { status: r.status, stderr: String(r.stderr ?? ''), wallMs, cpuMs: cpu0 == null || cpu1 == null ? null : cpu1 - cpu0 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Alternates `node -e 0`, `node bin/transcript-doctor.js scan <small file>` and the same scan by
 * the unbundled CLI, `runs` times each after two warm-up rounds. Returns median wall times, mean
 * CPU times and their ratios to the bare start.
 */
export function measureStartup(runs = 41, bin = 'bin/transcript-doctor.js') {
  const commands = { bare: ['-e', '0'], scan: [bin, 'scan', STARTUP_FILE, '--no-cache'], unbundled: ['bench/unbundled-cli.mjs', 'scan', STARTUP_FILE, '--no-cache'] };
  const samples = { bare: [], scan: [], unbundled: [] };
  for (let i = 0; i < runs + 2; i++) {
    for (const [name, args] of Object.entries(commands)) {
      const r = timed(args);
      // The fixture has a torn final line: exit 1 (findings) is the expected outcome.
      if (name !== 'bare' && (r.status !== 1 || r.stderr !== '')) throw new Error(`${args[0]} scan ${STARTUP_FILE} exited ${r.status}: ${r.stderr.trim().slice(-500)}`);
      if (i >= 2) samples[name].push(r);
    }
  }
  const summary = (xs) => ({
    wallMs: median(xs.map((r) => r.wallMs)),
    cpuMs: meanCpuMs(xs),
  });
  const [bare, scan, unbundled] = [samples.bare, samples.scan, samples.unbundled].map(summary);
  const ratios = (of) => ({ wallRatio: of.wallMs / bare.wallMs, cpuRatio: bare.cpuMs ? of.cpuMs / bare.cpuMs : null });
  return { runs, bare, scan, ...ratios(scan), unbundled: { ...unbundled, ...ratios(unbundled) } };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(measureStartup(Number(process.argv[2] ?? 41), process.argv[3])));
}
