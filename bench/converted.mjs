// What every bench/to-<format>.mjs converter shares: its output cached beside the pi transcript it
// was made from, and its use as a script.
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `suffix` twin of a cached pi transcript (`<pi>.<suffix>.jsonl`), made by `convert(source,
 * target)` once, through a temp file, and cached with its figures beside it.
 */
export async function ensureConverted(piFile, suffix, what, convert, log = console.log) {
  const target = piFile.replace(/\.jsonl$/, `.${suffix}.jsonl`);
  const marker = `${target}.complete`;
  if (fs.existsSync(marker)) return { file: target, ...JSON.parse(fs.readFileSync(marker, 'utf8')) };
  log(`converting ${path.basename(piFile)} to ${what} ...`);
  const tmp = `${target}.tmp-${process.pid}`;
  const meta = await convert(piFile, tmp);
  fs.renameSync(tmp, target);
  fs.writeFileSync(marker, JSON.stringify(meta));
  return { file: target, ...meta };
}

/**
 * A converter's output: `write(value)` one record a line, gathered into 4 MiB writes; `close()`
 * ends the file and gives its figures.
 */
export function jsonlWriter(target) {
  const out = fs.createWriteStream(target, { highWaterMark: 16 << 20 });
  let buffer = '';
  let lines = 0;
  return {
    get lines() {
      return lines;
    },
    async write(value) {
      buffer += JSON.stringify(value) + '\n';
      lines++;
      if (buffer.length > 4 << 20) {
        if (!out.write(buffer)) await once(out, 'drain');
        buffer = '';
      }
    },
    async close() {
      out.end(buffer);
      await once(out, 'finish');
      return { lines, bytes: fs.statSync(target).size };
    },
  };
}

/** `node bench/to-<format>.mjs <pi.jsonl> <out.jsonl>`, when the converter module is the script run. */
export async function runAsScript(moduleUrl, convert) {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== path.resolve(process.argv[1])) return;
  const [source, target] = process.argv.slice(2);
  if (!source || !target) {
    console.error(`usage: node bench/${path.basename(fileURLToPath(moduleUrl))} <pi.jsonl> <out.jsonl>`);
    process.exit(2);
  }
  console.log(JSON.stringify(await convert(source, target)));
}
