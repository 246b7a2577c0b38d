// The WebAssembly JSON validator of validate.wat, assembled with wabt (a dev dependency) when
// first asked for. Lines are copied into its memory one at a time, with the 0 and the padding
// it reads past a line's end.
import fs from 'node:fs';
import wabtModule from 'wabt';

const SOURCE = new URL('./validate.wat', import.meta.url);
/** Where a line is copied to: below it the validator keeps its stacks and its cuts. */
const LINE_AT = 32768;
/** The 0 after a line, and the SIMD reads of up to 16 bytes past it. */
const PAD = 32;
const OBJECT = 1;
const ARRAY = 2;
const STRING = 3;
const BACKSLASH = 0x5c;

let compiled;

async function compile() {
  const wabt = await wabtModule();
  const parsed = wabt.parseWat('validate.wat', fs.readFileSync(SOURCE, 'utf8'), { simd: true, bulk_memory: true });
  try {
    parsed.validate();
    return new WebAssembly.Module(parsed.toBinary({}).buffer);
  } finally {
    parsed.destroy();
  }
}

/**
 * Field paths read from a line: `a.b` an object's field, `a[].b` each element of an array, and a
 * last segment ending in `#` only whether that value is there (a text's presence, never its
 * content). Read from a parsed value (`fromValue`) or from the validator's tape (`fields`), each
 * path gives the strings it reaches (others count as present), in order, as one list.
 */
export function compilePaths(paths) {
  return paths.map((path) => {
    const presence = path.endsWith('#');
    const segments = (presence ? path.slice(0, -1) : path).split('.').map((part) => {
      const key = part.replace('[]', '');
      return { key, bytes: Buffer.from(key, 'latin1'), each: part.endsWith('[]') };
    });
    return { presence, segments };
  });
}

/** What `compilePaths` paths reach in a parsed line. */
export function fromValue(value, paths) {
  const found = [];
  const walk = (at, path, n) => {
    if (n === path.segments.length) return void found.push(path.presence || typeof at !== 'string' ? true : at);
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return;
    const { key, each } = path.segments[n];
    if (!Object.hasOwn(at, key)) return;
    const inner = at[key];
    if (!each) return walk(inner, path, n + 1);
    if (Array.isArray(inner)) for (const element of inner) walk(element, path, n + 1);
  };
  for (const path of paths) walk(value, path, 0);
  return found;
}

/**
 * A validator instance: `validate(line)` says whether the bytes are one JSON value, as JSON.parse
 * says of them read as latin1; `cut(line)` is what is left once every value string longer than
 * `cutOver` bytes is emptied, and `cutParse(line)` its parse; `fields(line, paths)` validates and reads
 * the paths from the tape, as `fromValue` reads them from the parse (undefined when not JSON).
 */
export async function wasmValidator(cutOver = 64) {
  compiled ??= await compile();
  const { exports } = new WebAssembly.Instance(compiled, {});
  exports.setMin(cutOver);
  let memory = Buffer.from(exports.memory.buffer);
  let words = new Int32Array(exports.memory.buffer);
  const copyIn = (line, room) => {
    const needed = LINE_AT + line.length + PAD + room;
    if (needed > memory.length) {
      exports.memory.grow(Math.ceil((needed - memory.length) / 65536));
      memory = Buffer.from(exports.memory.buffer);
      words = new Int32Array(exports.memory.buffer);
    }
    line.copy(memory, LINE_AT);
    memory.fill(0, LINE_AT + line.length, LINE_AT + line.length + PAD);
    return exports.validate(LINE_AT, LINE_AT + line.length) === 1;
  };
  /** A tape entry's kind, start and end; `tape` is its first word. */
  let tape = 0;
  const kind = (i) => words[tape + i * 3];
  const start = (i) => words[tape + i * 3 + 1];
  const end = (i) => words[tape + i * 3 + 2];
  const after = (i) => (kind(i) === OBJECT || kind(i) === ARRAY ? end(i) : i + 1);
  // The last field of that name, as JSON.parse keeps the last of keys written twice; keys with escapes are compared as written.
  const field = (object, key) => {
    let found = -1;
    for (let i = object + 1, last = end(object); i < last; i = after(i + 1)) {
      const from = start(i);
      if (end(i) - from !== key.length) continue;
      let k = 0;
      while (k < key.length && memory[from + k] === key[k]) k++;
      if (k === key.length) found = i + 1;
    }
    return found;
  };
  const text = (i) => {
    const from = start(i);
    const to = end(i);
    let escaped = false;
    for (let k = from; k < to && !escaped; k++) escaped = memory[k] === BACKSLASH;
    const raw = memory.latin1Slice(from, to);
    return escaped ? JSON.parse(`"${raw}"`) : raw;
  };
  /** The line with the long strings' content left out (a view of the validator's memory, until its next line), undefined when it is not JSON. */
  const cut = (line) => {
    exports.setTape(0);
    if (!copyIn(line, line.length)) return undefined;
    const out = LINE_AT + line.length + PAD;
    return memory.subarray(out, out + exports.compact(LINE_AT, LINE_AT + line.length, out));
  };
  return {
    validate: (line) => {
      exports.setTape(0);
      return copyIn(line, 0);
    },
    cut,
    cutParse(line) {
      const left = cut(line);
      return left === undefined ? undefined : JSON.parse(left.latin1Slice(0, left.length));
    },
    fields(line, paths) {
      // Room for the tape: an entry of 12 bytes for every byte and a half of the line at most, and the 4,000 brackets that may open it.
      const at = (LINE_AT + line.length + PAD + 3) & ~3;
      exports.setTape(at);
      if (!copyIn(line, 8 * line.length + 65536)) return undefined;
      tape = at >> 2;
      const found = [];
      const walk = (i, path, n) => {
        if (n === path.segments.length) return void found.push(path.presence || kind(i) !== STRING ? true : text(i));
        if (kind(i) !== OBJECT) return;
        const { bytes, each } = path.segments[n];
        const inner = field(i, bytes);
        if (inner === -1) return;
        if (!each) return walk(inner, path, n + 1);
        if (kind(inner) === ARRAY) for (let element = inner + 1, last = end(inner); element < last; element = after(element)) walk(element, path, n + 1);
      };
      for (const path of paths) walk(0, path, 0);
      return found;
    },
  };
}
