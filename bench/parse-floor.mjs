// What the parse baseline's time is made of, and what a scanner written in JavaScript could save:
//   node bench/parse-floor.mjs [file...]   (default: the real-shaped 128 MiB headline files)
// For each file, in one thread, the median of 3 runs of each step over every line:
//   read     the whole file into memory (what `cat` costs)
//   utf8     each line decoded from UTF-8 to a string, then JSON.parse of it (what the baseline does)
//   latin1   each line read as latin1 instead, then JSON.parse of it (what scan does for most lines)
//   skim     a validating skim of each line's bytes in JavaScript that builds nothing: it walks
//            the structure, finds each string's end (escapes checked, no raw control bytes) and
//            skips numbers and literals. A scanner that hands decoders spans (see #30) does this
//            and more: the skim is the floor of its cost, never the cost.
//   wasm     the same check in WebAssembly with SIMD (bench/wasm/validate.wat), each line copied
//            into its memory first: what the check costs outside JavaScript.
//   line     each line read as latin1 and parsed in turn, the text dropped at once (as scan reads
//            a line): the time the next step is compared with.
//   cut      that check, then JSON.parse of the line with the content of every string over 64
//            bytes cut out (`parsed`: the share of the file's bytes left to parse): what parsing
//            costs when a scanner materialises only the short strings a model keeps.
//   fields   each line parsed as in `line`, then the fields a model reads taken from the value
//            (kinds, ids, parents, roles, call ids and names, block types, whether a text is there).
//   tape     the WebAssembly check writing where each value is, and JavaScript reading the same
//            fields from those places, making strings of what it reads only: what decoders that
//            read their fields that way would pay instead of `fields`.
// A scanner that replaced parsing could at most save `latin1 parse − skim` a thread.
import fs from 'node:fs';
import { headlineFiles } from './headline-files.mjs';
import { compilePaths, fromValue, wasmValidator } from './wasm/validator.mjs';

const MiB = 2 ** 20;

/** The fields a model reads of a line, by the headline file's format (see compilePaths). */
const FIELDS = {
  pi: ['type', 'id', 'parentId', 'message.role', 'message.stopReason', 'message.toolCallId', 'message.toolName', 'message.content[].type', 'message.content[].id', 'message.content[].name', 'message.content[].text#'],
  'claude-code': ['type', 'uuid', 'parentUuid', 'isSidechain', 'message.role', 'message.stop_reason', 'message.content[].type', 'message.content[].id', 'message.content[].name', 'message.content[].tool_use_id', 'message.content[].text#'],
  codex: ['type', 'payload.type', 'payload.role', 'payload.call_id', 'payload.name', 'payload.arguments#', 'payload.content[].type', 'payload.content[].text#'],
  gemini: ['id', 'type', '$set#', 'toolCalls[].id', 'toolCalls[].name', 'toolCalls[].status', 'content#'],
  copilot: ['type', 'id', 'parentId', 'data.messageId', 'data.toolCallId', 'data.toolRequests[].toolCallId', 'data.toolRequests[].name', 'data.content#'],
  'qwen-code': ['type', 'uuid', 'parentUuid', 'message.role', 'message.parts[].functionCall.id', 'message.parts[].functionCall.name', 'message.parts[].functionResponse.id', 'message.parts[].functionResponse.name', 'message.parts[].text#'],
};
const fieldsOf = (file) => compilePaths(FIELDS[/\.(claude-code|codex|gemini|copilot|qwen-code)\.jsonl$/.exec(file)?.[1] ?? 'pi']);

/** Bytes that end a run of plain string content: `"`, `\` and the control bytes JSON refuses inside a string. */
const STOPS = new Uint8Array(256);
for (let byte = 0; byte < 0x20; byte++) STOPS[byte] = 1;
STOPS[0x22] = 1;
STOPS[0x5c] = 1;
const ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const isHex = (byte) => (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66);

/** The index after the string whose content starts at `i`; -1 when it is not a valid JSON string. */
function skimString(bytes, i) {
  for (;;) {
    while (i < bytes.length && STOPS[bytes[i]] === 0) i++;
    if (i >= bytes.length || bytes[i] < 0x20) return -1;
    if (bytes[i] === 0x22) return i + 1;
    const escaped = bytes[i + 1];
    if (escaped === 0x75) {
      for (let k = 2; k < 6; k++) if (!isHex(bytes[i + k])) return -1;
      i += 6;
    } else if (ESCAPES.has(escaped)) i += 2;
    else return -1;
  }
}

/** Whether a line is one JSON value, walked without building it (numbers and literals only skipped over). */
function skim(bytes) {
  let i = 0;
  const space = () => {
    while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0d)) i++;
  };
  const value = () => {
    space();
    const byte = bytes[i];
    if (byte === 0x22) return (i = skimString(bytes, i + 1)) !== -1;
    if (byte === 0x7b || byte === 0x5b) {
      const close = byte === 0x7b ? 0x7d : 0x5d;
      i++;
      space();
      if (bytes[i] === close) return ++i > 0;
      for (;;) {
        if (byte === 0x7b) {
          space();
          if (bytes[i] !== 0x22 || (i = skimString(bytes, i + 1)) === -1) return false;
          space();
          if (bytes[i++] !== 0x3a) return false;
        }
        if (!value()) return false;
        space();
        const next = bytes[i++];
        if (next === close) return true;
        if (next !== 0x2c) return false;
      }
    }
    const start = i;
    while (i < bytes.length && bytes[i] !== 0x2c && bytes[i] !== 0x7d && bytes[i] !== 0x5d && bytes[i] !== 0x20) i++;
    return i > start;
  };
  return value() && (space(), i === bytes.length);
}

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function measure(file, wasm) {
  const times = { read: [], utf8: [], parseUtf8: [], latin1: [], parse: [], skim: [], line: [], wasm: [], cut: [], fields: [], tape: [] };
  const paths = fieldsOf(file);
  let sink = 0;
  let left = 0;
  for (let run = 0; run < 3; run++) {
    let t = performance.now();
    const bytes = fs.readFileSync(file);
    times.read.push(performance.now() - t);
    const lines = [];
    for (let start = 0, end = bytes.indexOf(10); end !== -1; start = end + 1, end = bytes.indexOf(10, start)) if (end > start) lines.push(bytes.subarray(start, end));
    t = performance.now();
    const decoded = lines.map((line) => line.toString('utf8'));
    times.utf8.push(performance.now() - t);
    t = performance.now();
    for (const text of decoded) sink += JSON.parse(text) === null ? 0 : 1;
    times.parseUtf8.push(performance.now() - t);
    t = performance.now();
    const texts = lines.map((line) => line.latin1Slice(0, line.length));
    times.latin1.push(performance.now() - t);
    t = performance.now();
    for (const text of texts) sink += JSON.parse(text) === null ? 0 : 1;
    times.parse.push(performance.now() - t);
    t = performance.now();
    let skimmed = 0;
    for (const line of lines) skimmed += skim(line) ? 1 : 0;
    times.skim.push(performance.now() - t);
    t = performance.now();
    for (const line of lines) sink += JSON.parse(line.latin1Slice(0, line.length)) === null ? 0 : 1;
    times.line.push(performance.now() - t);
    t = performance.now();
    let validated = 0;
    for (const line of lines) validated += wasm.validate(line) ? 1 : 0;
    times.wasm.push(performance.now() - t);
    t = performance.now();
    let parsed = 0;
    for (const line of lines) parsed += wasm.cutParse(line) === undefined ? 0 : 1;
    times.cut.push(performance.now() - t);
    t = performance.now();
    for (const line of lines) sink += fromValue(JSON.parse(line.latin1Slice(0, line.length)), paths).length;
    times.fields.push(performance.now() - t);
    t = performance.now();
    for (const line of lines) sink += wasm.fields(line, paths)?.length ?? 0;
    times.tape.push(performance.now() - t);
    // Both ways read the same fields, or the two times are not of the same work; and the share of the bytes a cut leaves to parse.
    if (run === 0) {
      for (const line of lines) {
        left += wasm.cut(line).length / bytes.length;
        const read = JSON.stringify(fromValue(JSON.parse(line.latin1Slice(0, line.length)), paths));
        const taped = JSON.stringify(wasm.fields(line, paths));
        if (read !== taped) throw new Error(`${file}: the tape read ${taped} where the parse gives ${read}`);
      }
    }
    // Every line of these files parses: each check must walk every line to its end, or it measured less than it says.
    for (const [what, accepted] of [['skim', skimmed], ['wasm', validated], ['cut', parsed]]) {
      if (accepted !== lines.length) throw new Error(`${file}: the ${what} accepted ${accepted} of ${lines.length} lines`);
    }
  }
  return { ms: Object.fromEntries(Object.entries(times).map(([step, values]) => [step, Math.round(median(values))])), left, sink };
}

const files = process.argv.length > 2 ? process.argv.slice(2) : await headlineFiles();
const wasm = await wasmValidator(64);
console.log('file | MiB | read | utf8 decode + parse | latin1 read + parse | skim | skim / latin1 parse | line | wasm | cut (parsed) | line / cut | fields | tape | fields / tape');
for (const file of files) {
  const { ms, left } = measure(file, wasm);
  console.log(
    `${file.split('/').pop()} | ${(fs.statSync(file).size / MiB).toFixed(0)} | ${ms.read} | ${ms.utf8} + ${ms.parseUtf8} | ${ms.latin1} + ${ms.parse} | ${ms.skim} | ${(ms.skim / ms.parse).toFixed(2)}` +
      ` | ${ms.line} | ${ms.wasm} | ${ms.cut} (${(100 * left).toFixed(0)}%) | ${(ms.line / ms.cut).toFixed(2)} | ${ms.fields} | ${ms.tape} | ${(ms.fields / ms.tape).toFixed(2)}`,
  );
}
