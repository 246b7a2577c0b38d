// `npm run harden`: every reliability check in this folder, one after another, each in its own
// process, against the built CLI. Exits 1 when any of them fails.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
const only = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((name) => name.endsWith('.mjs') && name !== 'run.mjs')
  .filter((name) => only.length === 0 || only.includes(name.replace(/\.mjs$/, '')))
  .sort();

let failed = 0;
for (const script of scripts) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [join(here, script)], { stdio: 'inherit', timeout: 20 * 60_000 });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) failed += 1;
  console.log(`harden: ${script} ${result.status === 0 ? 'ok' : `FAIL (exit ${result.status ?? result.signal})`} in ${seconds} s`);
}
console.log(`harden: ${scripts.length - failed} of ${scripts.length} checks passed`);
process.exitCode = failed > 0 ? 1 : 0;
