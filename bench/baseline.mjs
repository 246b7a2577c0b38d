// Baseline: the least work any JSONL scanner must do — stream the file, split
// on "\n", JSON.parse every non-blank line. The scanner's throughput is judged
// against this.   node bench/baseline.mjs <file|folder>...   →   {"lines":n,"files":f,"ms":t}
// A folder stands for every *.jsonl file under it, one after another.
import fs from 'node:fs';
import path from 'node:path';

const inputs = process.argv.slice(2);
if (inputs.length === 0) { console.error('usage: node bench/baseline.mjs <file.jsonl|folder>...'); process.exit(2); }
const files = inputs.flatMap((input) => fs.statSync(input).isDirectory()
  ? fs.readdirSync(input, { recursive: true }).filter((name) => name.endsWith('.jsonl')).sort().map((name) => path.join(input, name))
  : [input]);

const t0 = performance.now();
let lines = 0;

function parse(buf, start, end) {
  const s = buf.toString('utf8', start, end);
  if (s.trim() === '') return;
  const v = JSON.parse(s);
  if (v !== null) lines++; // use the result so the parse cannot be skipped
}

async function parseFile(file) {
  let carry = null; // bytes of a line split across chunks (kept as Buffer: a chunk may end mid UTF-8 char)
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    let start = 0;
    let nl = chunk.indexOf(10);
    if (carry && nl >= 0) {
      const joined = Buffer.concat([carry, chunk.subarray(0, nl)]);
      carry = null;
      parse(joined, 0, joined.length);
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    while (nl >= 0) {
      parse(chunk, start, nl);
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) carry = carry ? Buffer.concat([carry, chunk.subarray(start)]) : chunk.subarray(start);
  }
  if (carry) parse(carry, 0, carry.length); // last line without a trailing newline
}

for (const file of files) await parseFile(file);
console.log(JSON.stringify({ lines, files: files.length, ms: Math.round(performance.now() - t0) }));
