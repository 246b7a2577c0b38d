import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheFolder } from '../../io/cache-folder.js';
import type { ModelSpec } from './types.js';

const KEY = /^[0-9a-f]{64}$/;

/** verify's verdict cache folder (see cacheFolder). */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  return cacheFolder('verify', env, platform);
}

/**
 * Verdicts on disk, one small JSON file per (model, prompt), so re-running verify over unchanged transcripts costs
 * nothing. A cache must not break a run: get() answers undefined and put() gives up silently on any problem.
 */
export class VerdictCache {
  /** undefined = disabled */
  constructor(private readonly dir: string | undefined) {}

  /** The base URL is left out on purpose: the same model behind a proxy gives the same verdict. */
  key(model: ModelSpec, system: string, user: string): string {
    return createHash('sha256').update(JSON.stringify([model.provider, model.model, system, user])).digest('hex');
  }

  async get(key: string): Promise<string | undefined> {
    if (this.dir === undefined || !KEY.test(key)) return undefined;
    try {
      const text: unknown = (JSON.parse(await readFile(join(this.dir, `${key}.json`), 'utf8')) as { text?: unknown } | null)?.text;
      return typeof text === 'string' ? text : undefined;
    } catch {
      return undefined;
    }
  }

  async put(key: string, text: string): Promise<void> {
    if (this.dir === undefined || !KEY.test(key)) return;
    // A unique temp name plus rename: concurrent runs never see (or leave) a half-written entry.
    const temp = join(this.dir, `.${key}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      // Verdicts quote transcript text, so keep them private to the user.
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFile(temp, JSON.stringify({ text }), { mode: 0o600 });
      await rename(temp, join(this.dir, `${key}.json`));
    } catch {
      await rm(temp, { force: true }).catch(() => undefined);
    }
  }
}
