// What a scan loses to starting cold, per headline file:
//   node bench/warm.mjs [runs] [file...]   (default: 5 runs of the six headline files)
// Run after `npm run build`. Each run is a child that loads the CLI once and scans the file three
// times in a row, alternating with the parse baseline. The first scan is what the CLI does; the
// later ones find V8's code compiled and optimised by the scans before (the main thread's: each
// scan starts its second thread afresh) and the heap grown. The medians of each scan's time, and
// its ratio to the baseline's; both timed inside their process, so neither counts Node's start.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { headlineFiles } from './headline-files.mjs';
import { ROOT, childRunner, median } from './measure.mjs';

const SCANS = 3;

if (process.argv[2] === '--child') {
  const [, , , file, report] = process.argv;
  const { loadBundle } = createRequire(import.meta.url)(path.join(ROOT, 'bin', 'load-bundle.js'));
  const cli = loadBundle(path.join(ROOT, 'dist', 'bundle', 'cli.cjs'));
  const times = [];
  for (let i = 0; i < SCANS; i++) {
    const t0 = performance.now();
    const code = await cli.exports.main(['node', 'transcript-doctor', 'scan', file, '--no-cache', '--reporter', 'json', '--output-file', report]);
    if (code !== 0 && code !== 1) throw new Error(`scan ${file} exited ${code}`);
    times.push(performance.now() - t0);
  }
  process.stdout.write(JSON.stringify(times));
} else {
  const args = process.argv.slice(2);
  const runs = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 5;
  const files = args.length > 0 ? args : await headlineFiles();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'td-warm-'));
  try {
    const c = childRunner(tmp);
    console.log(`${runs} runs each, alternating with the baseline\nfile | baseline s | scan 1, 2, 3 s | ratio to the baseline: scan 1, scan 3`);
    for (const file of files) {
      const baseline = [];
      const scans = Array.from({ length: SCANS }, () => []);
      for (let i = 0; i < runs; i++) {
        baseline.push((await c.baseline(file)).ms / 1000);
        const r = await c.runNode(['bench/warm.mjs', '--child', file, path.join(tmp, 'report.json')]);
        if (r.code !== 0) throw new Error(`warm child failed on ${file}: ${r.stderr.slice(-500)}`);
        JSON.parse(r.stdout).forEach((ms, k) => scans[k].push(ms / 1000));
      }
      const base = median(baseline);
      const times = scans.map(median);
      console.log(`${path.basename(file)} | ${base.toFixed(2)} | ${times.map((t) => t.toFixed(2)).join(', ')} | ${(base / times[0]).toFixed(2)}, ${(base / times[SCANS - 1]).toFixed(2)}`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
