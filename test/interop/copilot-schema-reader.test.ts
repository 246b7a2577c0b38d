import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { extractSchema } from './copilot-schema.js';

// Small hand-built binaries in the shapes the reader meets in Copilot's: it must find the schema
// past other notes, other assets and other tar entries, whichever SEA header Node wrote.

const SCHEMA = Buffer.from('{"$ref":"#/definitions/SessionEvent"}');

const u32 = (n: number) => Buffer.from(new Uint32Array([n]).buffer);
const u64 = (n: number) => Buffer.from(new BigUint64Array([BigInt(n)]).buffer);
const pad = (bytes: Buffer, to: number) => Buffer.concat([bytes, Buffer.alloc((to - (bytes.length % to)) % to)]);
/** Node's length-prefixed string. */
const string = (bytes: Buffer | string) => Buffer.concat([u64(Buffer.byteLength(bytes)), Buffer.from(bytes)]);

/** A tar entry: a ustar header (name split over prefix and name, size in octal) and its padded bytes. */
function tarEntry(path: string, content: Buffer): Buffer {
  const header = Buffer.alloc(512);
  const cut = path.lastIndexOf('/', path.length - 1 - 20);
  header.write(cut > 0 ? path.slice(cut + 1) : path, 0);
  if (cut > 0) header.write(path.slice(0, cut), 345);
  header.write(content.length.toString(8).padStart(11, '0'), 124);
  header.write('ustar', 257);
  return Buffer.concat([header, pad(content, 512)]);
}

function note(name: string, descriptor: Buffer): Buffer {
  const named = Buffer.from(`${name}\0`);
  return Buffer.concat([u32(named.length), u32(descriptor.length), u32(0), pad(named, 4), pad(descriptor, 4)]);
}

/** A 64-bit little-endian ELF file whose one program header is a note segment holding `notes`. */
function elf(notes: Buffer): Buffer {
  const header = Buffer.alloc(64);
  header.write('\x7fELF', 0, 'latin1');
  header[4] = 2;
  header[5] = 1;
  header.writeBigUInt64LE(64n, 0x20);
  header.writeUInt16LE(56, 0x36);
  header.writeUInt16LE(1, 0x38);
  const program = Buffer.alloc(56);
  program.writeUInt32LE(4, 0);
  program.writeBigUInt64LE(120n, 8);
  program.writeBigUInt64LE(BigInt(notes.length), 32);
  return Buffer.concat([header, program, notes]);
}

function binary(headerByte: boolean, tarball: Buffer): string {
  const flags = (1 << 0) | (1 << 3);
  const blob = Buffer.concat([
    u32(0x0143da20),
    u32(flags),
    headerByte ? Buffer.from([2]) : Buffer.alloc(0),
    string('sea-loader.js'),
    string('require("./app")'),
    u64(2),
    string('other.bin'),
    string(Buffer.alloc(700, 1)),
    string('copilot.tgz'),
    string(tarball),
  ]);
  const file = join(mkdtempSync(join(tmpdir(), 'td-sea-')), 'copilot');
  writeFileSync(file, elf(Buffer.concat([note('GNU', Buffer.alloc(20, 7)), note('NODE_SEA_BLOB', blob)])));
  return file;
}

const app = (...entries: Buffer[]) => gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));

describe('reading the schema out of a Node single executable application', () => {
  for (const headerByte of [true, false]) {
    it(`finds it past other notes, assets and entries (SEA header of ${headerByte ? '9' : '8'} bytes)`, async () => {
      const tarball = app(tarEntry('package/cli-main.js', Buffer.alloc(1500, 0x61)), tarEntry('package/schemas/session-events.schema.json', SCHEMA), tarEntry('package/README.md', Buffer.from('#')));
      expect((await extractSchema(binary(headerByte, tarball))).equals(SCHEMA)).toBe(true);
    });
  }

  it('says which part is missing', async () => {
    await expect(extractSchema(binary(true, app(tarEntry('package/cli-main.js', Buffer.from('x')))))).rejects.toThrow('copilot.tgz has no package/schemas/session-events.schema.json');
    const notSea = join(mkdtempSync(join(tmpdir(), 'td-sea-')), 'copilot');
    writeFileSync(notSea, elf(note('GNU', Buffer.alloc(20, 7))));
    await expect(extractSchema(notSea)).rejects.toThrow('no ELF note NODE_SEA_BLOB');
  });
});
