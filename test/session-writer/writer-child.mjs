/**
 * An agent writing a session through the session writer until it is killed: turns of a prompt,
 * one response calling 1 to 3 tools, their results arriving a few milliseconds apart with
 * bookkeeping in between, and a reply. It continues the file it is given (linking to its last
 * line) and says `ready` once the writer is open.
 *
 *   node writer-child.mjs <transcript-doctor's dist/index.js> <file> <format> <8 hex digits for ids>
 */
import { readFileSync } from 'node:fs';
import { sessionLines } from './lines.mjs';

const [, , library, file, format, prefix] = process.argv;
const { openSessionWriter } = await import(library);
const session = sessionLines(format, prefix);
const text = readFileSync(file, { encoding: 'utf8', flag: 'a+' });
const last = text.trimEnd().split('\n').at(-1);
if (last) {
  const value = JSON.parse(last);
  session.leaf = value.type === 'session' ? null : (value.id ?? value.uuid ?? null);
}
const writer = await openSessionWriter(file, { format });
const header = session.header();
if (text === '' && header !== undefined) await writer.append(header);
process.stdout.write('ready\n');

const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
for (let turn = 1; ; turn++) {
  await writer.append(session.user(`turn ${turn}`));
  const calls = Array.from({ length: 1 + (turn % 3) }, (_, i) => [`call_${prefix}_${turn}_${i}`, 'read']);
  for (const line of session.assistantLines(calls)) await writer.append(line);
  for (const [id, name] of calls) {
    await pause();
    if (Math.random() < 0.3) await writer.append(session.aside());
    await writer.append(session.result(id, name));
  }
  await writer.append(session.reply(`turn ${turn} done`));
}
