import { describe, expect, it } from 'vitest';
import { documentRef, imageRef } from '../../src/formats/images.js';
import { jpegBase64, pngBase64 } from '../model/size/images.js';

describe('imageRef', () => {
  it.each([
    ['a PNG', pngBase64(3000, 20), 3000, 20],
    ['a JPEG whose frame header is near the start', jpegBase64(800, 600), 800, 600],
    ['a JPEG whose frame header comes after 60 KB of metadata', jpegBase64(4032, 3024, 60_000), 4032, 3024],
  ])('reads the pixel dimensions of %s from its header', (_, data, width, height) => {
    expect(imageRef(data, 'image/png', '/p', 0)).toMatchObject({ width, height, base64Length: data.length });
  });

  it('gives no dimensions for a header cut short, whatever lies in memory beyond it', () => {
    for (let n = 0; n < 50; n++) expect(imageRef('R0lGODlh', 'image/gif', '/p', 0)).not.toHaveProperty('width');
  });

  it('marks an image inside a tool result', () => {
    expect(imageRef(pngBase64(1, 1), 'image/png', '/p', 2, true)).toMatchObject({ inToolResult: true, blockIndex: 2 });
  });
});

describe('documentRef', () => {
  it('counts the pages of a PDF whose page objects are plain, and leaves them uncounted otherwise', () => {
    const pdf = (pages: number) => Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Pages /Count ${pages} >> endobj\n${Array.from({ length: pages }, (_, k) => `${k + 2} 0 obj << /Type /Page /Parent 1 0 R >> endobj`).join('\n')}\n%%EOF`).toString('base64');
    expect(documentRef(pdf(3), 'application/pdf', '/d', 0)).toMatchObject({ pages: 3, mediaType: 'application/pdf' });
    expect(documentRef(Buffer.from('%PDF-1.7 compressed objects only').toString('base64'), 'application/pdf', '/d', 0)).not.toHaveProperty('pages');
  });
});
