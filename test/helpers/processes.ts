import { spawn } from 'node:child_process';

/** The pid of a process that was alive a moment ago and has exited since. */
export function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '0']);
    child.on('error', reject);
    child.on('exit', () => resolve(child.pid!));
  });
}
