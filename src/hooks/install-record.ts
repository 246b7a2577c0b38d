import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mkdir, rm } from '../io/named-fs.js';
import { AtomicFile } from '../io/safe-write.js';

/**
 * What `hooks install` created in each settings file besides the hooks (see settings-edit.ts,
 * Created), kept where tools keep state ($XDG_STATE_HOME), so that uninstall removes exactly
 * that and gives the file back as it was. Lost or unreadable, uninstall only takes the hooks
 * out and leaves any container it cannot tell was ours.
 */
type InstallRecord = Record<string, string[]>;

export function installRecordPath(): string {
  return join(process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'transcript-doctor', 'hooks-installed.json');
}

export async function createdIn(settingsPath: string): Promise<Set<string>> {
  return new Set((await readRecord())[resolve(settingsPath)] ?? []);
}

/** Adds what an install created in `settingsPath` to what earlier installs did. */
export async function rememberCreated(settingsPath: string, created: ReadonlySet<string>): Promise<void> {
  if (created.size === 0) return;
  const record = await readRecord();
  const key = resolve(settingsPath);
  record[key] = [...new Set([...(record[key] ?? []), ...created])];
  await writeRecord(record);
}

/** After an uninstall: nothing of ours is left in `settingsPath`. */
export async function forgetCreated(settingsPath: string): Promise<void> {
  const record = await readRecord();
  const key = resolve(settingsPath);
  if (!(key in record)) return;
  delete record[key];
  await writeRecord(record);
}

async function readRecord(): Promise<InstallRecord> {
  try {
    const value: unknown = JSON.parse(await readFile(installRecordPath(), 'utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string[]] => Array.isArray(entry[1]) && entry[1].every((item) => typeof item === 'string')));
  } catch {
    return {};
  }
}

async function writeRecord(record: InstallRecord): Promise<void> {
  const path = installRecordPath();
  if (Object.keys(record).length === 0) {
    await rm(path, { force: true });
    return;
  }
  await mkdir(dirname(path), { recursive: true });
  const file = await AtomicFile.create(path);
  try {
    await file.write(`${JSON.stringify(record, null, 2)}\n`);
  } catch (error) {
    await file.discard();
    throw error;
  }
  await file.commit({ backup: false });
}
