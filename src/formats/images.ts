import type { ImageRef } from '../model/entry.js';

/** What the first bytes of an image say it is. */
function sniff(head: Buffer): string | undefined {
  if (head.length >= 4 && head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 4 && head.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * An image whose bytes are in the line (base64): its declared media type, the type its first
 * bytes show, and its decoded size. Only 16 characters are decoded, whatever the image's size.
 */
export function imageRef(data: unknown, declared: unknown, pointer: string, blockIndex: number): ImageRef | undefined {
  if (typeof data !== 'string' || data === '') return undefined;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const ref: ImageRef = { pointer, blockIndex, bytes: Math.floor((data.length * 3) / 4) - padding };
  if (typeof declared === 'string') ref.declared = declared;
  const actual = sniff(Buffer.from(data.slice(0, 16), 'base64'));
  if (actual !== undefined) ref.actual = actual;
  return ref;
}

/** A `data:<type>;base64,<bytes>` URL (OpenAI's and Codex's image parts) as an image. */
export function dataUrlImage(url: unknown, pointer: string, blockIndex: number): ImageRef | undefined {
  if (typeof url !== 'string' || !url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  const header = url.slice(5, comma);
  if (comma === -1 || !header.endsWith(';base64')) return undefined;
  return imageRef(url.slice(comma + 1), header.slice(0, -';base64'.length), pointer, blockIndex);
}
