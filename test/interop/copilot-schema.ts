/**
 * Interop helper: the JSON Schema of session events that the installed Copilot CLI ships.
 *
 * The platform package's `copilot` is a Node single executable application (SEA): an ELF note
 * named NODE_SEA_BLOB holds Node's SEA blob, whose asset `copilot.tgz` is the client's app, and
 * that tarball holds `package/schemas/session-events.schema.json`. It is read straight from the
 * binary (positioned reads, then the asset streamed through gunzip until the entry is found) and
 * cached for the test run, so every test checks against the schema of the client it runs.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { open, readFile, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createGunzip } from 'node:zlib';

const SEA_NOTE = 'NODE_SEA_BLOB';
const SEA_ASSET = 'copilot.tgz';
const SCHEMA_ENTRY = 'package/schemas/session-events.schema.json';
/** `kMagic` in Node's src/node_sea.h. */
const SEA_MAGIC = 0x0143da20;
const SEA_INCLUDE_ASSETS = 1 << 3;
const SEA_USE_CODE_CACHE = 1 << 2;
const PT_NOTE = 4;

export interface ShippedSchema {
  /** The client's version (its platform package's), which the schema belongs to. */
  version: string;
  schema: Record<string, unknown>;
  /** Where the run keeps the extracted file. */
  cachedAt: string;
}

/** The session-events schema shipped in `binary`, extracted once per test run. */
export async function shippedSessionEventsSchema(binary: string): Promise<ShippedSchema> {
  const { version } = JSON.parse(await readFile(join(dirname(binary), 'package.json'), 'utf8')) as { version: string };
  // TMPDIR is the run's temp root (test/temp-root.ts), so the cache goes when the run ends.
  const cached = join(tmpdir(), `copilot-${version}-session-events.schema.json`);
  if (!existsSync(cached)) {
    const text = await extractSchema(binary);
    // Another test file may extract at the same time: each writes whole, the rename is atomic.
    const partial = `${cached}.${randomUUID()}`;
    await writeFile(partial, text);
    await rename(partial, cached);
  }
  return { version, schema: JSON.parse(await readFile(cached, 'utf8')) as Record<string, unknown>, cachedAt: cached };
}

/** The schema file's bytes, read out of `binary` (any 64-bit little-endian ELF holding a Node SEA blob with that asset). */
export async function extractSchema(binary: string): Promise<Buffer> {
  const file = await open(binary, 'r');
  let asset: Span;
  try {
    asset = await seaAsset(file, await seaBlob(file), SEA_ASSET);
  } finally {
    await file.close();
  }
  const source = createReadStream(binary, { start: asset.offset, end: asset.offset + asset.size - 1 });
  const gunzip = source.pipe(createGunzip());
  try {
    return await tarEntry(gunzip, SCHEMA_ENTRY);
  } finally {
    // The entry is found well before the archive's end: stop reading there.
    source.destroy();
    gunzip.destroy();
  }
}

interface Span {
  offset: number;
  size: number;
}

async function readAt(file: FileHandle, offset: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, offset);
  if (bytesRead !== length) throw new Error(`copilot binary: ${length} bytes wanted at ${offset}, the file ends first`);
  return buffer;
}

const align4 = (n: number) => (n + 3) & ~3;

/** The descriptor of the ELF note NODE_SEA_BLOB (64-bit little-endian ELF, as Linux x64 and arm64 ship). */
async function seaBlob(file: FileHandle): Promise<Span> {
  const header = await readAt(file, 0, 64);
  if (header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2 || header[5] !== 1) throw new Error('copilot binary: not a 64-bit little-endian ELF file');
  const tableOffset = Number(header.readBigUInt64LE(0x20));
  const entrySize = header.readUInt16LE(0x36);
  const entries = header.readUInt16LE(0x38);
  for (let i = 0; i < entries; i++) {
    const entry = await readAt(file, tableOffset + i * entrySize, entrySize);
    if (entry.readUInt32LE(0) !== PT_NOTE) continue;
    const start = Number(entry.readBigUInt64LE(8));
    const end = start + Number(entry.readBigUInt64LE(32));
    // A note segment holds notes back to back: sizes of name and descriptor, type, then both, each padded to 4.
    for (let at = start; at + 12 <= end; ) {
      const note = await readAt(file, at, 12);
      const nameSize = note.readUInt32LE(0);
      const descriptorSize = note.readUInt32LE(4);
      const name = (await readAt(file, at + 12, nameSize)).toString('latin1').replace(/\0+$/, '');
      const descriptor = at + 12 + align4(nameSize);
      if (name === SEA_NOTE) return { offset: descriptor, size: descriptorSize };
      at = descriptor + align4(descriptorSize);
    }
  }
  throw new Error(`copilot binary: no ELF note ${SEA_NOTE} (not a Node single executable application)`);
}

/**
 * An asset of Node's SEA blob (src/node_sea.cc, SeaSerializer): magic and flags (u32 each), in
 * newer Node one byte more (how execArgv extends), then length-prefixed strings (u64 length):
 * the code's path, the code, its code cache when flagged, then the asset count and each asset's
 * name and bytes. The extra byte's presence is not flagged, so both layouts are tried and only
 * the one whose strings all fall inside the blob and which holds the asset is taken.
 */
async function seaAsset(file: FileHandle, blob: Span, wanted: string): Promise<Span> {
  const head = await readAt(file, blob.offset, 8);
  if (head.readUInt32LE(0) !== SEA_MAGIC) throw new Error(`copilot binary: the SEA blob does not start with Node's magic number`);
  const flags = head.readUInt32LE(4);
  if ((flags & SEA_INCLUDE_ASSETS) === 0) throw new Error('copilot binary: its SEA blob holds no assets');
  const end = blob.offset + blob.size;
  for (const headerSize of [9, 8]) {
    const found = await assetAfter(file, blob.offset + headerSize, end, flags, wanted);
    if (found !== undefined) return found;
  }
  throw new Error(`copilot binary: its SEA blob has no asset ${wanted}`);
}

/** The asset named `wanted` when the blob's strings start at `at`, or undefined when they do not fit there. */
async function assetAfter(file: FileHandle, at: number, end: number, flags: number, wanted: string): Promise<Span | undefined> {
  const next = async (): Promise<Span | undefined> => {
    if (at + 8 > end) return undefined;
    const size = Number((await readAt(file, at, 8)).readBigUInt64LE(0));
    if (at + 8 + size > end) return undefined;
    const span = { offset: at + 8, size };
    at = span.offset + size;
    return span;
  };
  // The code's path, the code, and its cache when there is one.
  const strings = (flags & SEA_USE_CODE_CACHE) !== 0 ? 3 : 2;
  for (let i = 0; i < strings; i++) if ((await next()) === undefined) return undefined;
  if (at + 8 > end) return undefined;
  const count = Number((await readAt(file, at, 8)).readBigUInt64LE(0));
  at += 8;
  for (let i = 0; i < count; i++) {
    const name = await next();
    const content = await next();
    if (name === undefined || content === undefined) return undefined;
    if ((await readAt(file, name.offset, name.size)).toString('utf8') === wanted) return content;
  }
  return undefined;
}

/** Reads exact byte counts from a stream of chunks. */
class ByteFeed {
  private held: Buffer = Buffer.alloc(0);
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(stream: AsyncIterable<Buffer>) {
    this.chunks = stream[Symbol.asyncIterator]();
  }

  /** The next `n` bytes, or undefined when the stream ends first. */
  async take(n: number): Promise<Buffer | undefined> {
    const parts = [this.held];
    let have = this.held.length;
    while (have < n) {
      const next = await this.chunks.next();
      if (next.done) return undefined;
      parts.push(next.value);
      have += next.value.length;
    }
    const all = parts.length === 1 ? this.held : Buffer.concat(parts, have);
    this.held = all.subarray(n);
    return all.subarray(0, n);
  }

  /** Passes `n` bytes without keeping them (the app's native runtime alone is 145 MB). */
  async skip(n: number): Promise<boolean> {
    let left = n;
    while (left > this.held.length) {
      left -= this.held.length;
      const next = await this.chunks.next();
      if (next.done) return false;
      this.held = next.value;
    }
    this.held = this.held.subarray(left);
    return true;
  }
}

/** The bytes of one file in a tar stream (ustar headers: name, size in octal, the name's prefix). */
async function tarEntry(stream: AsyncIterable<Buffer>, wanted: string): Promise<Buffer> {
  const feed = new ByteFeed(stream);
  const text = (block: Buffer, from: number, length: number) => block.subarray(from, from + length).toString('utf8').replace(/\0.*$/s, '');
  for (;;) {
    const block = await feed.take(512);
    // Two zero blocks end the archive; one is enough to know the entry is not in it.
    if (block === undefined || block.every((byte) => byte === 0)) break;
    const prefix = text(block, 345, 155);
    const name = prefix === '' ? text(block, 0, 100) : `${prefix}/${text(block, 0, 100)}`;
    const size = Number.parseInt(text(block, 124, 12).trim() || '0', 8);
    const padded = Math.ceil(size / 512) * 512;
    if (name === wanted) {
      const content = await feed.take(size);
      if (content === undefined) break;
      return Buffer.from(content);
    }
    if (!(await feed.skip(padded))) break;
  }
  throw new Error(`copilot binary: ${SEA_ASSET} has no ${wanted}`);
}
