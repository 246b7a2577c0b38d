import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { terminalText } from '../report/terminal-text.js';
import { cacheFolder } from '../io/cache-folder.js';
import { ScanCache } from './scan-cache.js';

/** `--no-cache` (commander's `cache: false`) and `--cache-dir`, as every command that caches takes them. */
export interface CacheInput {
  cache?: boolean;
  cacheDir?: string;
  /** `--cache-strategy`: metadata (default) or content. */
  cacheStrategy?: string;
}

/** The cache for one set of settings (see cacheKey), or undefined with `--no-cache`. */
export function openScanCache(input: CacheInput, key: Record<string, unknown>, warn: (line: string) => void = defaultWarn): ScanCache | undefined {
  if (input.cache !== true) return undefined;
  const dir = input.cacheDir === undefined ? cacheFolder('scan') : resolve(input.cacheDir);
  const strategy = input.cacheStrategy ?? 'metadata';
  if (strategy !== 'metadata' && strategy !== 'content') throw new UserError(`--cache-strategy must be metadata or content, not "${strategy}"`);
  return new ScanCache({ dir, key, warn, strategy });
}

function defaultWarn(line: string): void {
  process.stderr.write(`transcript-doctor: warning: ${terminalText(line)}\n`);
}
