/**
 * Plain values (JSON's kinds and undefined) as one byte stream, each string and each object's list
 * of keys written once in a table. A format's replay notes are many small objects of a few shapes,
 * which V8's serialiser writes key by key: a Gemini CLI checkpoint of 160,000 notes took 22 MB,
 * and its writing 60 MB more at the peak. The stream is a column of the checkpoint (see
 * column-payload.ts), read back without a copy.
 */
export interface PackedValues {
  bytes: Uint8Array;
  strings: string[];
  /** Each object shape's keys, in order, as codes into `strings`. */
  shapes: number[][];
  /** The numbers that are not whole and at least 0, in the order they come. */
  doubles: number[];
}

const enum Tag {
  Undefined,
  Null,
  False,
  True,
  Whole,
  Double,
  Text,
  List,
  Record,
}

/** Packs `values`; throws for anything but plain objects, arrays, strings, numbers, booleans, null and undefined. */
export function packValues(values: readonly unknown[]): PackedValues {
  const out = new ByteWriter();
  const strings: string[] = [];
  const codes = new Map<string, number>();
  const shapes: number[][] = [];
  const shapeCodes = new Map<string, number>();
  const doubles: number[] = [];
  const text = (value: string) => {
    let code = codes.get(value);
    if (code === undefined) codes.set(value, (code = strings.push(value) - 1));
    return code;
  };
  const write = (value: unknown): void => {
    if (value === undefined) out.byte(Tag.Undefined);
    else if (value === null) out.byte(Tag.Null);
    else if (typeof value === 'boolean') out.byte(value ? Tag.True : Tag.False);
    else if (typeof value === 'number') {
      if (Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0)) {
        out.byte(Tag.Whole);
        out.whole(value);
      } else {
        out.byte(Tag.Double);
        out.whole(doubles.push(value) - 1);
      }
    } else if (typeof value === 'string') {
      out.byte(Tag.Text);
      out.whole(text(value));
    } else if (Array.isArray(value)) {
      out.byte(Tag.List);
      out.whole(value.length);
      for (let i = 0; i < value.length; i++) write(value[i]);
    } else if (typeof value === 'object' && isPlain(value)) {
      const keys = Object.keys(value);
      const id = keys.join('\0');
      let shape = shapeCodes.get(id);
      if (shape === undefined) shapeCodes.set(id, (shape = shapes.push(keys.map(text)) - 1));
      out.byte(Tag.Record);
      out.whole(shape);
      for (const key of keys) write((value as Record<string, unknown>)[key]);
    } else throw new Error(`cannot pack a ${typeof value === 'object' ? value.constructor?.name : typeof value}`);
  };
  for (const value of values) write(value);
  return { bytes: out.done(), strings, shapes, doubles };
}

/** The values packValues packed; throws for a stream that does not hold them (a checkpoint of another build). */
export function unpackValues(packed: PackedValues): unknown[] {
  const { bytes, strings, shapes, doubles } = packed;
  let at = 0;
  const whole = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error('packed values end early');
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
      if (scale > 2 ** 56) throw new Error('a packed number too long');
    }
  };
  const known = <T>(table: readonly T[], code: number): T => {
    if (code >= table.length) throw new Error('a packed value names no entry of its table');
    return table[code]!;
  };
  const read = (): unknown => {
    if (at >= bytes.length) throw new Error('packed values end early');
    switch (bytes[at++] as Tag) {
      case Tag.Undefined:
        return undefined;
      case Tag.Null:
        return null;
      case Tag.False:
        return false;
      case Tag.True:
        return true;
      case Tag.Whole:
        return whole();
      case Tag.Double:
        return known(doubles, whole());
      case Tag.Text:
        return known(strings, whole());
      case Tag.List: {
        const length = whole();
        if (length > bytes.length - at) throw new Error('a packed list longer than the stream');
        const list: unknown[] = [];
        for (let i = 0; i < length; i++) list.push(read());
        return list;
      }
      case Tag.Record: {
        const record: Record<string, unknown> = {};
        for (const code of known(shapes, whole())) {
          const key = known(strings, code);
          // Assigned, `__proto__` would set the prototype instead of a key.
          if (key === '__proto__') Object.defineProperty(record, key, { value: read(), enumerable: true, writable: true, configurable: true });
          else record[key] = read();
        }
        return record;
      }
      default:
        throw new Error('a packed value of no known kind');
    }
  };
  const values: unknown[] = [];
  while (at < bytes.length) values.push(read());
  return values;
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A byte stream that doubles its room as it fills. */
class ByteWriter {
  private bytes = new Uint8Array(1 << 16);
  private length = 0;

  byte(value: number): void {
    if (this.length === this.bytes.length) this.grow();
    this.bytes[this.length++] = value;
  }

  /** A whole number at least 0, seven bits a byte, the lowest first. */
  whole(value: number): void {
    while (value >= 0x80) {
      this.byte((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    this.byte(value);
  }

  done(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  private grow(): void {
    const bigger = new Uint8Array(this.bytes.length * 2);
    bigger.set(this.bytes);
    this.bytes = bigger;
  }
}
