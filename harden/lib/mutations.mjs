// Seeded mutations of a transcript's bytes, the way disks, crashes and hand edits break files.
// Shared by the mutation-fuzz harden script and its fast subset in `npm test`.

/** A small seeded generator (mulberry32): the same seed gives the same mutations everywhere. */
export function random(seed) {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n);
  };
}

const BYTES = [0x3b, 0x7d, 0x7b, 0x22, 0x2c, 0x00, 0x0a, 0x20, 0x5d, 0x39];

export const MUTATIONS = {
  /** One byte becomes a JSON-significant character (or a NUL or a newline). */
  'set-byte': (bytes, pick) => {
    const out = Buffer.from(bytes);
    if (out.length > 0) out[pick(out.length)] = BYTES[pick(BYTES.length)];
    return out;
  },
  'delete-byte': (bytes, pick) => {
    if (bytes.length === 0) return bytes;
    const at = pick(bytes.length);
    return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
  },
  /** A crash mid-write: the file stops at some byte. */
  truncate: (bytes, pick) => bytes.subarray(0, pick(bytes.length + 1)),
  'swap-lines': (bytes, pick) => lines(bytes, pick, (list, a, b) => ([list[a], list[b]] = [list[b], list[a]])),
  'drop-line': (bytes, pick) => lines(bytes, pick, (list, a) => list.splice(a, 1)),
  'duplicate-line': (bytes, pick) => lines(bytes, pick, (list, a, b) => list.splice(b, 0, list[a])),
  /** A lost newline: two lines become one. */
  'glue-lines': (bytes, pick) => lines(bytes, pick, (list, a) => a + 1 < list.length && list.splice(a, 2, Buffer.concat([list[a], list[a + 1]]))),
  /** A crash mid-append, then the next append on the same line: a torn record with a whole one after it. */
  'tear-and-glue': (bytes, pick) =>
    lines(bytes, pick, (list, a) => a + 1 < list.length && list.splice(a, 2, Buffer.concat([list[a].subarray(0, pick(list[a].length + 1)), list[a + 1]]))),
  /** A writer that did not escape a line break inside a string (Copilot CLI #2649): one record over two lines. */
  'break-in-string': (bytes, pick) =>
    lines(bytes, pick, (list, a) => {
      const inside = stringBytes(list[a]);
      if (inside.length === 0) return;
      const at = inside[pick(inside.length)];
      list.splice(a, 1, list[a].subarray(0, at), list[a].subarray(at));
    }),
};

/** Offsets right after a space inside a line's JSON strings: where text that held a line break is cut (names and ids hold no spaces). */
function stringBytes(line) {
  const found = [];
  let inString = false;
  for (let at = 0; at < line.length; at++) {
    const b = line[at];
    if (!inString) inString = b === 0x22;
    else if (b === 0x5c) at += 1;
    else if (b === 0x22) inString = false;
    else if (line[at - 1] === 0x20) found.push(at);
  }
  return found;
}

function lines(bytes, pick, change) {
  const list = [];
  let start = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, start)) {
    list.push(bytes.subarray(start, at));
    start = at + 1;
  }
  const tail = bytes.subarray(start);
  if (list.length === 0) return bytes;
  change(list, pick(list.length), pick(list.length));
  return Buffer.concat([...list.flatMap((line) => [line, Buffer.from('\n')]), tail]);
}

/** Applies `count` seeded mutations; returns the bytes and what was done, for the report. */
export function mutate(bytes, seed, count = 1) {
  const pick = random(seed);
  const names = Object.keys(MUTATIONS);
  const done = [];
  let out = bytes;
  for (let i = 0; i < count; i++) {
    const name = names[pick(names.length)];
    out = MUTATIONS[name](out, pick);
    done.push(name);
  }
  return { bytes: out, done };
}
