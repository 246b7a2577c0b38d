// Sanity check for generated transcripts (not part of the timed bench):
//   node bench/validate.mjs <file.jsonl> [meta.json]
// Checks every line parses, the header, 8-hex unique ids, that parentIds point
// to earlier entries (re-parented ones = the deliberate branches), compaction
// cut points, and recounts the injected problems on the leaf → root path with
// an independent, simple implementation, comparing against the generator's meta.

import fs from 'node:fs';
import readline from 'node:readline';

const [file, metaArg] = process.argv.slice(2);
if (!file) { console.error('usage: node bench/validate.mjs <file.jsonl> [meta.json]'); process.exit(2); }
const metaFile = metaArg ?? file.replace(/\.jsonl$/, '.meta.json');
const meta = fs.existsSync(metaFile) ? JSON.parse(fs.readFileSync(metaFile, 'utf8')) : null;

const errors = [];
const fail = (line, msg) => { if (errors.length < 20) errors.push(`line ${line}: ${msg}`); };
const nodes = new Map(); // id → compact info; whole bodies are not kept
let lineNo = 0, prevId = null, roots = 0, reparented = 0, nonAscii = 0, escapes = 0, lastId = null;
const compactions = [];

const rl = readline.createInterface({ input: fs.createReadStream(file, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
for await (const line of rl) {
  lineNo++;
  if (/[^\x00-\x7f]/.test(line)) nonAscii++;
  if (line.includes('\\n') || line.includes('\\"')) escapes++;
  let e;
  try { e = JSON.parse(line); } catch (err) { fail(lineNo, `JSON: ${err.message}`); continue; }
  if (lineNo === 1) {
    if (e.type !== 'session' || e.version !== 3 || typeof e.id !== 'string' || !e.id) fail(1, 'bad header');
    continue;
  }
  if (!/^[0-9a-f]{8}$/.test(e.id)) fail(lineNo, `id ${e.id} is not 8-hex`);
  if (nodes.has(e.id)) fail(lineNo, `duplicate id ${e.id}`);
  if (Number.isNaN(Date.parse(e.timestamp))) fail(lineNo, 'bad timestamp');
  if (e.parentId === null) roots++;
  else if (!nodes.has(e.parentId)) fail(lineNo, `parentId ${e.parentId} does not resolve to an earlier entry`);
  else if (e.parentId !== prevId) reparented++;
  const m = e.type === 'message' ? e.message : null;
  const info = { parent: e.parentId, line: lineNo, type: e.type, role: m?.role };
  if (m?.role === 'assistant') {
    info.failed = m.stopReason === 'error' || m.stopReason === 'aborted';
    info.calls = m.content.filter((b) => b.type === 'toolCall').map((b) => b.id);
    info.partial = m.content.some((b) => b.type === 'toolCall' && 'partialJson' in b);
  } else if (m?.role === 'toolResult') {
    info.callId = m.toolCallId;
    info.synthetic = m.isError && m.content.some((b) => b.text?.startsWith('[openclaw] missing tool result'));
  }
  if (e.type === 'compaction') compactions.push({ id: e.id, kept: e.firstKeptEntryId, line: lineNo });
  nodes.set(e.id, info);
  prevId = lastId = e.id;
}
if (roots !== 1) fail(0, `expected exactly one root, found ${roots}`);

// Leaf → root path, in order.
const path = [];
for (let id = lastId; id != null && nodes.has(id); id = nodes.get(id).parent) path.push(id); // stops at a broken link (already reported)
path.reverse();

// Compaction cut point must be an ancestor of the compaction, and not a toolResult.
for (const c of compactions) {
  let ok = false;
  for (let id = c.id; id != null && nodes.has(id) && !ok; id = nodes.get(id).parent) ok = id === c.kept;
  if (!ok) fail(c.line, `firstKeptEntryId ${c.kept} is not on the compaction's path`);
  if (nodes.get(c.kept)?.role === 'toolResult') fail(c.line, 'firstKeptEntryId is a toolResult');
}

// Pairing on the path (fast-path definition, openclaw.md §6.C8 / §9.1.7).
const found = { unansweredToolCalls: 0, unansweredTurns: 0, abortedPartialJsonTurns: 0, resultsAfterFailedTurns: 0, orphanResults: 0 };
const msgs = path.map((id) => nodes.get(id)).filter((n) => n.type === 'message');
for (let i = 0; i < msgs.length; i++) {
  const n = msgs[i];
  if (n.role !== 'assistant' || n.calls.length === 0) {
    if (n.role === 'toolResult') found.orphanResults++; // not directly after its assistant's call run
    continue;
  }
  let j = i + 1;
  const got = [];
  while (j < msgs.length && msgs[j].role === 'toolResult') got.push(msgs[j++].callId);
  if (n.failed) {
    if (n.partial) found.abortedPartialJsonTurns++;
    found.resultsAfterFailedTurns += got.length;
  } else {
    const missing = n.calls.filter((id, k) => got[k] !== id).length;
    if (missing) { found.unansweredToolCalls += missing; found.unansweredTurns++; }
    if (missing && msgs[j]?.role !== 'user') fail(msgs[i].line, 'unanswered call not followed by a user turn');
  }
  i = j - 1;
}

const report = {
  file, lines: lineNo, entries: nodes.size, pathLength: path.length, reparented, compactions: compactions.length,
  linesWithNonAscii: nonAscii, linesWithEscapes: escapes, found, errors,
};
if (meta) {
  const want = {
    lines: meta.lines, reparented: meta.branches, unansweredToolCalls: meta.problems.unansweredToolCalls,
    unansweredTurns: meta.problems.unansweredTurns, abortedPartialJsonTurns: meta.problems.abortedPartialJsonTurns,
    resultsAfterFailedTurns: meta.problems.syntheticResults, orphanResults: 0,
  };
  const have = { lines: lineNo, reparented, ...found };
  for (const k of Object.keys(want)) if (want[k] !== have[k]) errors.push(`${k}: meta says ${want[k]}, file has ${have[k]}`);
  if (meta.bytes !== fs.statSync(file).size) errors.push('size differs from meta');
}
if (!nonAscii || !escapes) errors.push('expected non-ASCII text and JSON escapes');
console.log(JSON.stringify(report, null, 2));
console.log(errors.length ? `INVALID (${errors.length} problems)` : 'OK');
process.exit(errors.length ? 1 : 0);
