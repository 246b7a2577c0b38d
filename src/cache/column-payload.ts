import { DefaultDeserializer, DefaultSerializer } from 'node:v8';

/**
 * A model's typed arrays written as they are, each at an offset that is a multiple of 8, and the
 * objects around them (maps, tables, counts) serialised by V8 with each array a reference to its
 * place: read back, every array is a view of the bytes read, no copy (V8's own format leaves them
 * unaligned, and a misaligned array is copied when read).
 */
export interface ColumnPayload {
  /** In file order: the columns (each padded to 8 bytes), then the skeleton. */
  parts: Uint8Array[];
  /** Each column's type, offset in the payload and length in elements; the skeleton's offset and length. */
  layout: PayloadLayout;
}

export interface PayloadLayout {
  columns: Array<[type: string, offset: number, length: number]>;
  skeleton: [offset: number, length: number];
}

type ViewType = new (buffer: ArrayBufferLike, offset: number, length: number) => ArrayBufferView;

const TYPES: Record<string, ViewType> = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
};

const PAD = new Uint8Array(8);

/**
 * V8 asks a serializer's `_writeHostObject` for each typed array, and a deserializer's
 * `_readHostObject` for it back: set on the instances, not by subclassing, as the CLI's bundle
 * loads node:v8 through stand-ins that cannot be extended (scripts/bundle.mjs).
 */
type HostWriter = { _writeHostObject(view: ArrayBufferView): void };
type HostReader = { _readHostObject(): ArrayBufferView };

export function packColumns(data: unknown): ColumnPayload {
  const writer = new DefaultSerializer();
  const views: ArrayBufferView[] = [];
  (writer as unknown as HostWriter)._writeHostObject = (view) => {
    writer.writeUint32(views.length);
    views.push(view);
  };
  writer.writeHeader();
  writer.writeValue(data);
  const skeleton = writer.releaseBuffer();
  const parts: Uint8Array[] = [];
  const columns: PayloadLayout['columns'] = [];
  let at = 0;
  for (const view of views) {
    // A Buffer is read back as a Uint8Array (the model makes its Buffers again from their bytes: IdTable.revive).
    const type = view instanceof Buffer ? 'Uint8Array' : view.constructor.name;
    if (TYPES[type] === undefined) throw new Error(`cannot save a ${type}`);
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    columns.push([type, at, view.byteLength / ((view as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1)]);
    // An empty part is left out: zlib.crc32 of an empty array is 0, not the running value.
    if (bytes.length > 0) parts.push(bytes);
    at += bytes.length;
    if (at % 8 !== 0) {
      parts.push(PAD.subarray(0, 8 - (at % 8)));
      at += 8 - (at % 8);
    }
  }
  parts.push(skeleton);
  return { parts, layout: { columns, skeleton: [at, skeleton.length] } };
}

/** The saved value, its arrays views of `payload` (which must start at a multiple of 8 in its buffer). Throws for a layout that does not fit the payload. */
export function unpackColumns(payload: Uint8Array, layout: PayloadLayout): unknown {
  const views = layout.columns.map(([type, offset, length]) => {
    const View = TYPES[type];
    if (View === undefined || !Number.isSafeInteger(offset) || offset % 8 !== 0 || !Number.isSafeInteger(length)) throw new Error('a column the checkpoint cannot hold');
    const size = (View as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    if (offset + length * size > payload.length) throw new Error('a column past the end of the checkpoint');
    return new View(payload.buffer, payload.byteOffset + offset, length);
  });
  const [offset, length] = layout.skeleton;
  const reader = new DefaultDeserializer(payload.subarray(offset, offset + length) as Buffer);
  (reader as unknown as HostReader)._readHostObject = () => {
    const view = views[reader.readUint32()];
    if (view === undefined) throw new Error('a column the checkpoint does not hold');
    return view;
  };
  reader.readHeader();
  return reader.readValue();
}
