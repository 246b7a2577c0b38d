/**
 * A reader polling a session while a writer appends to it, as another tool (or a resuming agent)
 * would read it: the whole file each time, its complete lines only. It stops when `<file>.done`
 * exists and prints `{polls, grew, halfPairs}`: how many reads, how many saw new lines, and the
 * first reads that found a call without its result.
 *
 *   node reader-child.mjs <file> <format>
 */
import { existsSync, readFileSync } from 'node:fs';
import { unansweredCalls } from './lines.mjs';

const [, , file, format] = process.argv;
let polls = 0;
let grew = 0;
let size = 0;
const halfPairs = [];
process.stdout.write('ready\n');
while (!existsSync(`${file}.done`)) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  polls += 1;
  if (text.length > size) grew += 1;
  size = text.length;
  const open = unansweredCalls(format, text);
  if (open.length > 0 && halfPairs.length < 5) halfPairs.push({ bytes: text.length, open });
}
process.stdout.write(`${JSON.stringify({ polls, grew, halfPairs })}\n`);
