import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/**
 * The folder a cache of ours lives in (`verify`'s verdicts, `scan`'s): $XDG_CACHE_HOME/transcript-doctor/<name>
 * when set (on any platform: whoever sets it means it), else the platform's cache folder: ~/Library/Caches on
 * macOS, %LOCALAPPDATA% on Windows, ~/.cache elsewhere.
 */
export function cacheFolder(name: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const path = platform === 'win32' ? win32 : posix;
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec says a relative value is invalid and must be ignored.
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'transcript-doctor', name);
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || path.join(env.USERPROFILE || homedir(), 'AppData', 'Local');
    return path.join(local, 'transcript-doctor', name);
  }
  const home = env.HOME || homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'transcript-doctor', name);
  return path.join(home, '.cache', 'transcript-doctor', name);
}
