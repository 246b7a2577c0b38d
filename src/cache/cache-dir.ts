import { dirname, join } from 'node:path';
import { defaultCacheDir as verifyCacheDir } from '../verify/llm/cache.js';

/** The scan cache's folder: `scan` beside verify's, under $XDG_CACHE_HOME/transcript-doctor (else the platform's cache folder). */
export function defaultScanCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(verifyCacheDir(env)), 'scan');
}
