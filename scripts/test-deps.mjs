// Installs what only the tests need, which `npm install` leaves out: the agents' own packages the
// interop tests load and the tokenizer slim-resume counts with (test/interop/package.json), exactly
// as its lock file says. Run by `npm test`; a later run whose lock file is unchanged does nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const folder = path.join(import.meta.dirname, '..', 'test', 'interop');
const lock = createHash('sha256').update(readFileSync(path.join(folder, 'package-lock.json'))).digest('hex');
const stamp = path.join(folder, 'node_modules', '.installed-from-lock');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lock) {
  console.log('installing the interop tests’ packages (test/interop) …');
  // `npm install` from the lock, not `npm ci`: Qwen Code's clipboard package names platform builds
  // the registry does not hold, which npm install skips and npm ci calls a lock out of sync.
  // Their install scripts only build native parts (terminals, clipboards) the tests never load.
  const run = spawnSync('npm', ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  writeFileSync(stamp, lock);
}
