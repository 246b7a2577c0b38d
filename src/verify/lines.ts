import { closeSync, openSync, readSync } from 'node:fs';
import type { LineText, TranscriptFormat } from '../formats/format.js';
import type { Entry } from '../model/entry.js';
import { recordText } from '../io/split-records.js';

/** Reads the text of single lines again, by position: the model keeps no content. */
export class LineTexts {
  private readonly fd: number;
  private readonly cache = new Map<number, LineText>();

  constructor(path: string, private readonly format: TranscriptFormat) {
    this.fd = openSync(path, 'r');
  }

  of(entry: Entry): LineText {
    let text = this.cache.get(entry.line);
    if (text === undefined) {
      const bytes = Buffer.allocUnsafe(entry.byteLength);
      readSync(this.fd, bytes, 0, entry.byteLength, entry.offset);
      text = this.format.readText(JSON.parse(recordText(bytes)));
      this.cache.set(entry.line, text);
    }
    return text;
  }

  close(): void {
    closeSync(this.fd);
  }
}
