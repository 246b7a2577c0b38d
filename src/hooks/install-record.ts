import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mkdir, rm } from '../io/named-fs.js';
import { AtomicFile } from '../io/safe-write.js';

/**
 * What `hooks install` created in each settings file besides the hooks (see settings-edit.ts,
 * Created), kept where tools keep state ($XDG_STATE_HOME), so that uninstall removes exactly
 * that and gives the file back as it was. One record per settings file, each written whole by
 * rename: installs for several agents at once never touch the same record, so none loses what
 * another wrote (one shared file did, read and rewritten by each). Lost or unreadable, uninstall
 * only takes the hooks out and leaves any container it cannot tell was ours.
 */
function stateFolder(): string {
  return join(process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'transcript-doctor');
}

/** The record of one settings file: named by a hash of its absolute path, which it holds too. */
export function installRecordPath(settingsPath: string): string {
  const digest = createHash('sha256').update(resolve(settingsPath)).digest('hex').slice(0, 32);
  return join(stateFolder(), 'hooks-installed', `${digest}.json`);
}

/** The one file every settings file shared before: still read, so an earlier install's record is kept. */
function sharedRecordPath(): string {
  return join(stateFolder(), 'hooks-installed.json');
}

export async function createdIn(settingsPath: string): Promise<Set<string>> {
  return new Set([...(await ownRecord(settingsPath)), ...((await sharedRecord())[resolve(settingsPath)] ?? [])]);
}

/** Adds what an install created in `settingsPath` to what earlier installs did. */
export async function rememberCreated(settingsPath: string, created: ReadonlySet<string>): Promise<void> {
  if (created.size === 0) return;
  const all = new Set([...(await createdIn(settingsPath)), ...created]);
  await writeWhole(installRecordPath(settingsPath), { path: resolve(settingsPath), created: [...all] });
}

/** After an uninstall: nothing of ours is left in `settingsPath`. */
export async function forgetCreated(settingsPath: string): Promise<void> {
  await rm(installRecordPath(settingsPath), { force: true });
  const shared = await sharedRecord();
  const key = resolve(settingsPath);
  if (!(key in shared)) return;
  delete shared[key];
  if (Object.keys(shared).length === 0) await rm(sharedRecordPath(), { force: true });
  else await writeWhole(sharedRecordPath(), shared);
}

async function ownRecord(settingsPath: string): Promise<string[]> {
  const value = await readJson(installRecordPath(settingsPath));
  if (typeof value !== 'object' || value === null) return [];
  const { path, created } = value as { path?: unknown; created?: unknown };
  return path === resolve(settingsPath) && isNames(created) ? created : [];
}

async function sharedRecord(): Promise<Record<string, string[]>> {
  const value = await readJson(sharedRecordPath());
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string[]] => isNames(entry[1])));
}

const isNames = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
}

async function writeWhole(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const file = await AtomicFile.create(path, { followLinks: false });
  try {
    await file.write(`${JSON.stringify(value, null, 2)}\n`);
  } catch (error) {
    await file.discard();
    throw error;
  }
  await file.commit({ backup: false });
}
