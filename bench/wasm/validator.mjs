// The WebAssembly JSON validator of validate.wat, assembled with wabt (a dev dependency) when
// first asked for. Lines are copied into its memory one at a time, with the 0 and the padding
// it reads past a line's end.
import fs from 'node:fs';
import wabtModule from 'wabt';

const SOURCE = new URL('./validate.wat', import.meta.url);
/** Where a line is copied to: below it the validator keeps its stack and its cuts. */
const LINE_AT = 16384;
/** The 0 after a line, and the SIMD reads of up to 16 bytes past it. */
const PAD = 32;

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
 * A validator instance: `validate(line)` says whether the bytes are one JSON value, as JSON.parse
 * says of them read as latin1; `cutParse(line)` validates and parses what is left once every
 * value string longer than `cutOver` bytes is emptied (undefined when the line is not JSON).
 */
export async function wasmValidator(cutOver = 64) {
  compiled ??= await compile();
  const { exports } = new WebAssembly.Instance(compiled, {});
  exports.setMin(cutOver);
  let memory = Buffer.from(exports.memory.buffer);
  const copyIn = (line, room) => {
    const needed = LINE_AT + line.length + PAD + room;
    if (needed > memory.length) {
      exports.memory.grow(Math.ceil((needed - memory.length) / 65536));
      memory = Buffer.from(exports.memory.buffer);
    }
    line.copy(memory, LINE_AT);
    memory.fill(0, LINE_AT + line.length, LINE_AT + line.length + PAD);
    return exports.validate(LINE_AT, LINE_AT + line.length) === 1;
  };
  return {
    validate: (line) => copyIn(line, 0),
    cutParse(line) {
      if (!copyIn(line, line.length)) return undefined;
      const out = LINE_AT + line.length + PAD;
      const length = exports.compact(LINE_AT, LINE_AT + line.length, out);
      return JSON.parse(memory.latin1Slice(out, out + length));
    },
  };
}
