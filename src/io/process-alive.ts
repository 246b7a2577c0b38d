import { codeOf } from '../errors.js';

/**
 * Whether a process with this id exists on this machine. EPERM means it exists but belongs to
 * someone else. Only positive ids are asked about: kill(0) and kill(-n) address process groups.
 */
export function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}
