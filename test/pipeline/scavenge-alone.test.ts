import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-cli.js';

/**
 * A child process that runs phases under `--trace-gc-nvp` and marks them on stdout: for each
 * phase, the time V8's helper tasks spent in its scavenges. The flag is process-wide and V8's own,
 * so it is watched from outside. Inside the work the helpers do nothing at all (the flag is off);
 * with it on, dozens of scavenges leave them some work.
 */
function helperTimes(phases: string, nodeFlags: string[] = []): Map<string, { scavenges: number; helpers: number }> {
  const module = pathToFileURL(join(ROOT, 'dist', 'pipeline', 'scavenge-alone.js')).href;
  const script = `
    import { availableParallelism } from 'node:os';
    const { scavengingAlone } = await import(${JSON.stringify(module)});
    const all = availableParallelism();
    const churn = (name) => {
      console.log('PHASE ' + name);
      let keep = [];
      for (let i = 0; i < 3e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 20000) keep = []; }
    };
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    ${phases}
    console.log('PHASE end');
  `;
  const run = spawnSync(process.execPath, [...nodeFlags, '--trace-gc-nvp', '--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 26 });
  expect(run.status, run.stderr).toBe(0);
  const times = new Map<string, { scavenges: number; helpers: number }>();
  let phase = '';
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('PHASE ')) times.set((phase = line.slice(6)), { scavenges: 0, helpers: 0 });
    else if (line.includes(' gc=s ')) {
      const at = times.get(phase)!;
      at.scavenges += 1;
      at.helpers += Number(/background\.scavenge\.parallel=([\d.]+)/.exec(line)![1]);
    }
  }
  return times;
}

describe('scavengingAlone', () => {
  it('keeps the helpers out while the work runs, and lets them back in after', { timeout: 60_000 }, () => {
    const times = helperTimes(`
      churn('before');
      await scavengingAlone(all, async () => { churn('inside'); });
      churn('after');
      await scavengingAlone(all - 1, async () => { churn('fewer threads than cores'); });
    `);
    for (const phase of ['before', 'inside', 'after', 'fewer threads than cores']) expect(times.get(phase)!.scavenges, phase).toBeGreaterThan(10);
    expect(times.get('inside')!.helpers).toBe(0);
    expect(times.get('before')!.helpers).toBeGreaterThan(0);
    expect(times.get('after')!.helpers).toBeGreaterThan(0);
    expect(times.get('fewer threads than cores')!.helpers).toBeGreaterThan(0);
  });

  it('turns the helpers back on only when the last overlapping work ends, failed or not', { timeout: 60_000 }, () => {
    const times = helperTimes(`
      let endFirst;
      const first = scavengingAlone(all, () => new Promise((resolve) => { endFirst = resolve; }));
      const second = scavengingAlone(all, async () => {
        await tick();
        endFirst();
        await first;
        churn('first ended, second running');
        throw new Error('the work failed');
      }).catch(() => undefined);
      await second;
      churn('both ended');
    `);
    expect(times.get('first ended, second running')!.helpers).toBe(0);
    expect(times.get('both ended')!.helpers).toBeGreaterThan(0);
  });

  it('leaves the flag as it is when node was started with it named', { timeout: 60_000 }, () => {
    const times = helperTimes(`
      await scavengingAlone(all, async () => { churn('inside'); });
      churn('after');
    `, ['--no-parallel-scavenge']);
    expect(times.get('after')!.scavenges).toBeGreaterThan(10);
    expect(times.get('after')!.helpers).toBe(0);
  });
});
