import { imageSize } from 'image-size';
import type { DocumentRef, ImageRef } from '../model/entry.js';

/** What the first bytes of an image say it is. */
function sniff(head: Buffer): string | undefined {
  if (head.length >= 4 && head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 4 && head.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * How much of an image's base64 is decoded to find its dimensions, in turn: a PNG, GIF or WebP
 * header is in the first bytes; a JPEG's frame header comes after its metadata segments (EXIF, a
 * thumbnail, colour profiles), tens of kilobytes in at most, else anywhere.
 */
const HEADER_CHARS = [512, 96 * 1024, Infinity];

function decodedBytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** Pixel dimensions from the header (image-size), decoding no more of the base64 than it needs. */
function dimensions(data: string): { width: number; height: number } | undefined {
  for (const chars of HEADER_CHARS) {
    const head = chars >= data.length ? data : data.slice(0, chars - (chars % 4));
    try {
      const { width, height } = imageSize(Buffer.from(head, 'base64'));
      if (width > 0 && height > 0) return { width, height };
    } catch {
      // Cut short, or not an image it reads: more of it, or none.
    }
    if (head === data) return undefined;
  }
  return undefined;
}

/**
 * An image whose bytes are in the line (base64): its declared media type, the type its first
 * bytes show, its decoded size, its base64 length and pixel dimensions. Only its header is
 * decoded, whatever the image's size.
 */
export function imageRef(data: unknown, declared: unknown, pointer: string, blockIndex: number, inToolResult = false): ImageRef | undefined {
  if (typeof data !== 'string' || data === '') return undefined;
  const ref: ImageRef = { pointer, blockIndex, bytes: decodedBytes(data), base64Length: data.length };
  if (typeof declared === 'string') ref.declared = declared;
  const actual = sniff(Buffer.from(data.slice(0, 16), 'base64'));
  if (actual !== undefined) ref.actual = actual;
  const size = dimensions(data);
  if (size !== undefined) {
    ref.width = size.width;
    ref.height = size.height;
  }
  if (inToolResult) ref.inToolResult = true;
  return ref;
}

/**
 * A PDF whose bytes are in the line (base64), with its pages when they can be counted cheaply:
 * each page object of an uncompressed cross-reference names `/Type /Page`; a PDF whose objects sit
 * in compressed streams shows none, and its pages stay uncounted.
 */
export function documentRef(data: unknown, mediaType: unknown, pointer: string, blockIndex: number, inToolResult = false): DocumentRef | undefined {
  if (typeof data !== 'string' || data === '') return undefined;
  const ref: DocumentRef = { pointer, blockIndex, base64Length: data.length, bytes: decodedBytes(data) };
  if (typeof mediaType === 'string') ref.mediaType = mediaType;
  const pages = countPages(data);
  if (pages !== undefined) ref.pages = pages;
  if (inToolResult) ref.inToolResult = true;
  return ref;
}

/** Documents larger than this are not decoded to count their pages. */
const COUNTED_BYTES = 32 * 1024 * 1024;

function countPages(data: string): number | undefined {
  if (data.length > (COUNTED_BYTES * 4) / 3) return undefined;
  const text = Buffer.from(data, 'base64').toString('latin1');
  if (!text.startsWith('%PDF')) return undefined;
  const pages = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return pages > 0 ? pages : undefined;
}

/** A `data:<type>;base64,<bytes>` URL (OpenAI's and Codex's image parts) as an image. */
export function dataUrlImage(url: unknown, pointer: string, blockIndex: number, inToolResult = false): ImageRef | undefined {
  if (typeof url !== 'string' || !url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  const header = url.slice(5, comma);
  if (comma === -1 || !header.endsWith(';base64')) return undefined;
  return imageRef(url.slice(comma + 1), header.slice(0, -';base64'.length), pointer, blockIndex, inToolResult);
}
