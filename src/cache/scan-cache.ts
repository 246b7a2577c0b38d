import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { fsName } from '../io/byte-names.js';
import { realpathSync } from '../io/named-fs.js';
import { basename, dirname, join, resolve } from 'node:path';
import { version } from '../version.js';
import { cacheKey, entryId } from './cache-key.js';
import { checkpointPlace, type CheckpointPlace } from './checkpoint-file.js';
import { cacheFileName, ensureCacheDir, pruneCacheFiles, readCacheFile, writeCacheFile, type CacheEntry, type CachedVerdict } from './cache-file.js';
import { racy, RACY_WINDOWS, racyWindows, sameStamp, stampFile, type CacheStrategy, type FileStamp } from './file-stamp.js';

/** A hit refreshes its entry's age only this often: a warm run that changes nothing then writes nothing. */
const REFRESH_MS = 60 * 60 * 1000;

export interface ScanCacheOptions {
  dir: string;
  /** Everything besides the file that can change its verdict (see cacheKey). */
  key: Record<string, unknown>;
  /** Where the one warning of a run goes, when the cache cannot be used. */
  warn: (line: string) => void;
  /** The racy window for every file (see racy); the default's otherwise. */
  racyMs?: number;
  /** How a file is known again (see CacheStrategy); metadata unless told. */
  strategy?: CacheStrategy;
}

/** What the cache knows of a file: its verdict, or how to remember one. */
export type Lookup = { hit: true; verdict: CachedVerdict } | { hit: false; remember: (verdict: CachedVerdict) => void };

const NOTHING: Lookup = { hit: false, remember: () => {} };

/**
 * The clean verdicts of files seen before, for one set of settings. A file is answered from it
 * only when its stamp (identity, size, times, the hash of its ends) is the one it had when found
 * clean, and no lock file sits beside it (a running agent's lock can excuse what would otherwise
 * be a finding). It may skip work; it never changes a verdict: anything it cannot be sure of is
 * checked as if there were no cache.
 */
export class ScanCache {
  private readonly tool = version;
  private readonly key: string;
  /** Each shard read so far (by file name): its entries, or undefined when it cannot be used. */
  private readonly shards = new Map<string, Map<string, CacheEntry> | undefined>();
  private readonly changed = new Map<string, CacheEntry>();
  /** False when the folder cannot hold the cache. */
  private readonly usable: boolean;
  /** Shards that proved unusable in a way a new file cannot mend (a FIFO, a folder). */
  private readonly unwritable = new Set<string>();
  private warned = false;
  private readonly locks = new LockLookup();

  constructor(private readonly options: ScanCacheOptions) {
    this.key = cacheKey({ ...options.key, strategy: options.strategy ?? 'metadata' });
    const problem = ensureCacheDir(options.dir);
    this.usable = problem === undefined;
    if (problem !== undefined) this.warn(`the cache folder ${options.dir} is ${problem}`);
  }

  /** Where the checkpoints of files read as `format` (undefined: detected) live beside this cache; none when its folder cannot hold them. */
  checkpoints(format: string | undefined): CheckpointPlace | undefined {
    return this.usable ? checkpointPlace(this.options.dir, format) : undefined;
  }

  private warn(why: string): void {
    if (this.warned) return;
    this.warned = true;
    this.options.warn(`${why}; checking without it`);
  }

  /** The entries of the shard that holds `id`, read once per run. */
  private shard(id: string): Map<string, CacheEntry> | undefined {
    const name = cacheFileName(this.key, id);
    if (this.shards.has(name)) return this.shards.get(name);
    let entries: Map<string, CacheEntry> | undefined;
    if (this.usable) {
      const read = readCacheFile(join(this.options.dir, name), this.tool, this.key);
      if ('entries' in read) entries = read.entries;
      else if ('missing' in read) entries = new Map();
      else {
        if (!read.replaceable) this.unwritable.add(name);
        this.warn(`the cache file ${join(this.options.dir, name)} is ${read.unusable}`);
      }
    }
    this.shards.set(name, entries);
    return entries;
  }

  async lookup(path: string): Promise<Lookup> {
    const strategy = this.options.strategy ?? 'metadata';
    const stamped = stampFile(path, strategy);
    // For `content`, the times too: what tells that the file did not change while it was checked.
    const before = strategy === 'metadata' ? stamped : stampFile(path);
    if (stamped === undefined || before === undefined || this.locks.beside(path)) return NOTHING;
    const id = entryId(path);
    const entry = this.shard(id)?.get(id);
    const now = Date.now();
    if (entry !== undefined && sameStamp(entry.stamp, stamped.stamp)) {
      if (now - entry.used > REFRESH_MS) this.changed.set(id, { ...entry, used: now });
      return { hit: true, verdict: entry.verdict };
    }
    if (racy(stamped.stamp, stamped.takenNs, this.options.racyMs === undefined ? RACY_WINDOWS : racyWindows(this.options.racyMs))) return NOTHING;
    return { hit: false, remember: (verdict) => this.remember(path, id, stamped.stamp, before.stamp, verdict) };
  }

  /** Only when the file is still as it was stamped: a verdict on bytes written meanwhile is not the stamp's. */
  private remember(path: string, id: string, stamp: FileStamp, before: FileStamp, verdict: CachedVerdict): void {
    const after = stampFile(path);
    if (after === undefined || !sameStamp(after.stamp, before)) return;
    this.changed.set(id, { stamp, used: Date.now(), verdict });
  }

  /**
   * Writes what this run learnt, each shard merged into its file as it is now: another run may
   * have written it meanwhile, and what it learnt stays. Never throws: a cache that cannot be
   * written is one warning.
   */
  save(): void {
    if (this.changed.size === 0 || !this.usable) return;
    const byShard = new Map<string, Array<[string, CacheEntry]>>();
    for (const [id, entry] of this.changed) {
      const name = cacheFileName(this.key, id);
      if (this.unwritable.has(name)) continue;
      const learnt = byShard.get(name);
      if (learnt === undefined) byShard.set(name, [[id, entry]]);
      else learnt.push([id, entry]);
    }
    this.changed.clear();
    for (const [name, learnt] of byShard) {
      const current = readCacheFile(join(this.options.dir, name), this.tool, this.key);
      const merged = 'entries' in current ? current.entries : new Map<string, CacheEntry>();
      for (const [id, entry] of learnt) merged.set(id, entry);
      try {
        writeCacheFile(this.options.dir, name, this.tool, this.key, merged);
      } catch (error) {
        this.warn(`the cache file ${join(this.options.dir, name)} cannot be written (${(error as Error).message})`);
      }
    }
    try {
      pruneCacheFiles(this.options.dir);
    } catch (error) {
      this.warn(`the cache folder ${this.options.dir} cannot be listed (${(error as Error).message})`);
    }
  }
}

/**
 * Whether a lock file sits where a writer of a file may hold one: the places lockPaths names
 * (beside the real file, beside the name given). Each folder is listed once, when its first
 * file is looked up: thousands of sessions share a few folders, and a listing costs what one
 * look-up of a name does. Made per cache, so per run: guard's check after the agent exits sees
 * the locks as they are then.
 */
class LockLookup {
  /** A folder's entries (name → whether it is a link), or undefined for one that cannot be listed. */
  private readonly listings = new Map<string, Map<string, boolean> | undefined>();

  beside(path: string): boolean {
    const given = resolve(path);
    const parent = dirname(given);
    const names = fsName(given) === given ? this.listing(parent) : undefined;
    if (names === undefined) return lockByName(given);
    const name = basename(given);
    // The name given and the folder's real path lead to this one folder, and to its listing.
    if (names.has(`${name}.lock`)) return true;
    if (names.get(name) !== true) return false;
    const real = realOr(given, given);
    return existsSync(fsName(`${real}.lock`));
  }

  private listing(folder: string): Map<string, boolean> | undefined {
    if (this.listings.has(folder)) return this.listings.get(folder);
    let names: Map<string, boolean> | undefined;
    try {
      names = new Map(readdirSync(folder, { withFileTypes: true }).map((entry) => [entry.name, entry.isSymbolicLink()]));
    } catch {
      names = undefined;
    }
    this.listings.set(folder, names);
    return names;
  }
}

/** The same, name by name: for a folder that cannot be listed, or a name that is not UTF-8. */
function lockByName(given: string): boolean {
  const named = join(realOr(dirname(given), dirname(given)), basename(given));
  const real = lstatSync(fsName(given), { throwIfNoEntry: false })?.isSymbolicLink() === true ? realOr(given, named) : named;
  return [`${real}.lock`, `${named}.lock`, `${given}.lock`].some((lock) => existsSync(fsName(lock)));
}

function realOr(path: string, fallback: string): string {
  try {
    return realpathSync(path);
  } catch {
    return fallback;
  }
}
