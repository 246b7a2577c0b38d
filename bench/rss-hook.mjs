// Preload for `node --import ./bench/rss-hook.mjs ...`: records the process's
// peak RSS when it exits, so the bench gets an exact number for a child
// without polling. maxRSS is in KiB on Linux. The write must be sync: nothing
// async runs after 'exit'. No-op unless BENCH_RSS_FILE is set.
import { writeFileSync } from 'node:fs';

const out = process.env.BENCH_RSS_FILE;
if (out) {
  process.on('exit', () => {
    writeFileSync(out, String(process.resourceUsage().maxRSS));
  });
}
