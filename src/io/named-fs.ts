import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { fsName, nameFromBytes } from './byte-names.js';

/**
 * The file system calls the tool makes on names it found or was given, taking and returning names
 * as byte-names.ts keeps them: a name that is not UTF-8 reaches the system as its own bytes, and
 * a path the system gives back (realpath, a folder's entries) keeps its bytes too.
 */
export const open = (name: string, flags?: string | number, mode?: number) => fsp.open(fsName(name), flags, mode);
export const stat = (name: string) => fsp.stat(fsName(name));
export const lstat = (name: string) => fsp.lstat(fsName(name));
export const rename = (from: string, to: string) => fsp.rename(fsName(from), fsName(to));
export const rm = (name: string, options?: fs.RmOptions) => fsp.rm(fsName(name), options);
export const copyFile = (from: string, to: string, mode?: number) => fsp.copyFile(fsName(from), fsName(to), mode);
export const link = (existing: string, name: string) => fsp.link(fsName(existing), fsName(name));
export const appendFile = (name: string, data: Buffer | string) => fsp.appendFile(fsName(name), data);
export const mkdir = (name: string, options?: fs.MakeDirectoryOptions) => fsp.mkdir(fsName(name), options);
export const createReadStream = (name: string, options?: Parameters<typeof fs.createReadStream>[1]) => fs.createReadStream(fsName(name), options);
export const createWriteStream = (name: string, options?: Parameters<typeof fs.createWriteStream>[1]) => fs.createWriteStream(fsName(name), options);
export function statSync(name: string): fs.Stats;
export function statSync(name: string, options: { throwIfNoEntry: false }): fs.Stats | undefined;
export function statSync(name: string, options?: { throwIfNoEntry: false }): fs.Stats | undefined {
  return fs.statSync(fsName(name), options);
}
export const openSync = (name: string, flags: string | number) => fs.openSync(fsName(name), flags);
export const rmSync = (name: string, options?: fs.RmOptions) => fs.rmSync(fsName(name), options);

export async function realpath(name: string): Promise<string> {
  return nameFromBytes(await fsp.realpath(fsName(name), { encoding: 'buffer' }));
}

export function realpathSync(name: string): string {
  return nameFromBytes(fs.realpathSync.native(fsName(name), { encoding: 'buffer' }));
}

export async function readdir(name: string): Promise<string[]> {
  return (await fsp.readdir(fsName(name), { encoding: 'buffer' })).map(nameFromBytes);
}

/** A folder's entries with their kinds, each name as byte-names.ts keeps it. */
export function readdirSync(name: string): Array<{ name: string; entry: fs.Dirent<Buffer> }> {
  return fs.readdirSync(fsName(name), { withFileTypes: true, encoding: 'buffer' }).map((entry) => ({ name: nameFromBytes(entry.name), entry }));
}
