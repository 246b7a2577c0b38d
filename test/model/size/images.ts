/** Image headers for tests: just enough bytes for a reader of dimensions, the rest filler. */

function chunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  return Buffer.concat([length, Buffer.from(type, 'latin1'), body, Buffer.alloc(4)]);
}

/** A PNG signature and IHDR for an RGBA image of this size, then `filler` bytes of data. */
export function pngBase64(width: number, height: number, filler = 64): string {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', Buffer.alloc(filler))]);
  return png.toString('base64');
}

/** A JPEG whose frame header comes after an application segment of `metadata` bytes (EXIF and thumbnails push it that far in). */
export function jpegBase64(width: number, height: number, metadata = 16): string {
  const app = Buffer.alloc(4 + metadata);
  app.writeUInt16BE(0xffe1, 0);
  app.writeUInt16BE(metadata + 2, 2);
  const frame = Buffer.alloc(19);
  frame.writeUInt16BE(0xffc0, 0);
  frame.writeUInt16BE(17, 2);
  frame[4] = 8;
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  frame[9] = 3;
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app, frame, Buffer.from([0xff, 0xd9])]).toString('base64');
}
