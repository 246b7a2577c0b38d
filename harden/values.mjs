// Reliability: values a rewritten line used to change silently (issue 12, item 5).
//
//   node harden/values.mjs        (after `npm run build`; HARDEN_SEED=<n> picks other values)
//
// Generates sessions whose lines repair or canonicalize must rewrite, with values JSON.stringify
// cannot give back as they were written: 64-bit integers, 1e400, -0, odd number spellings,
// escapes, duplicate keys, odd whitespace, 100,000 levels of nesting and a line of several MB.
// Runs the built CLI on them and checks every output byte for byte against the input with only
// the intended members changed. Prints one line per case and exits 1 if any case fails.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'transcript-doctor.js');
const TIMEOUT_MS = 60_000;
const FILES_PER_CASE = 4;
const SEED = Number(process.env.HARDEN_SEED ?? 20260412);

if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) {
  console.error('harden values: dist/ is missing; run `npm run build` first');
  process.exit(1);
}

/** mulberry32: small, seeded, so a failure can be replayed with the same HARDEN_SEED. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
const rng = random(SEED);
const pick = (list) => list[Math.floor(rng() * list.length)];
const int = (below) => Math.floor(rng() * below);

/** A decimal integer above 2^53, where doubles can no longer hold every integer. */
function bigInt() {
  const value = 2n ** 53n + BigInt(int(2 ** 30)) * BigInt(int(2 ** 30) + 1) + BigInt(int(1000));
  return (rng() < 0.3 ? '-' : '') + (rng() < 0.3 ? 2n ** 64n - 1n - BigInt(int(1000)) : value).toString();
}

/** Each case writes the members of a JSON object (its text) with the values it is about. */
const CASES = [
  ['64-bit ints', () => `"chat_id":${bigInt()},"user_id":${bigInt()},"ids":[${bigInt()}, ${bigInt()}],"reply_to":{"message_id":${bigInt()}}`],
  ['1e400', () => `"limit":1e${309 + int(5000)},"floor":-1E+${400 + int(99)},"tiny":1e-${400 + int(99)},"list":[1e400, 2, -1e999]`],
  ['-0', () => `"offset":-0,"x":-0.0,"y":-0e0,"z":[-0, 0, -0E-5],"w":{"v":-0}`],
  ['number spellings', () => `"ratio":1.0,"scale":1E5,"cost":2.50e-3,"p":0.1e+2,"long":12345678901234567890.${int(1e6)}5,"n":${int(100)}.000`],
  ['escapes', () => `"to":"caf\\u00e9 \\/ b\\u00fcro","sep":"\\u2028","emoji":"\\ud83d\\ude00 ${int(100)}","lone":"\\ud800","ctl":"\\t\\b\\f\\r\\n\\"\\\\"`],
  ['duplicate keys', () => `"mode":"a","mode":"b","n":{"x":1,"x":${int(100)},"x":3},"mode2":null,"mode2":{"k":[1]}`],
  // A JSONL line holds no raw line break, so spaces and tabs only.
  ['whitespace', () => ` "a" :\t1 ,  "b":[ 1 ,\t2 ] , "c" : { "d" : "e" }\t `],
];

const CALL = 'toolu_01Q7mXkV2pLr9sTz4bNc8WdE';
const at = (second) => `"timestamp":"2026-04-02T10:00:0${second}.000Z"`;
const header = '{"type":"session","version":3,"id":"harden-values","timestamp":"2026-04-02T10:00:00.000Z","cwd":"/workspace/demo"}';
const user = (values) => `{"type":"message","id":"a0000001","parentId":null,${at(1)},"message":{"role":"user","content":"Send it.","timestamp":1775124001000},"meta":{${values}}}`;
const assistant = (content, values) =>
  `{"type":"message","id":"a0000002","parentId":"a0000001",${at(2)},"message":{"role":"assistant","content":[${content}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":812,"output":64,"extra":{${values}}},"stopReason":"toolUse","timestamp":1775124002500}}`;
const result = (idField, parent, values, text = 'sent') =>
  `{"type":"message","id":"a0000003","parentId":"${parent}",${at(3)},"message":{"role":"toolResult","${idField}":"${CALL}","toolName":"send","content":[{"type":"text","text":"${text}"}],"details":{${values}},"isError":false,"timestamp":1775124004000}}`;
const reply = `{"type":"message","id":"a0000004","parentId":"a0000003",${at(4)},"message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":900,"output":5},"stopReason":"stop","timestamp":1775124005000}}`;
const jsonl = (lines) => lines.join('\n') + '\n';

/**
 * A session canonicalize rewrites (a legacy `toolUse` block with `input`, a result's `toolUseId`)
 * and one repair rewrites (a blank text block to drop, a result whose parent is gone), each with
 * the case's values in the tool arguments and in untouched members of the rewritten lines; and
 * what each command must write: the same bytes with only those members changed.
 */
function sessions(values, text) {
  const args = `{${values()}}`;
  const legacy = `{"type":"toolUse","id":"${CALL}","name":"send","input":${args}}`;
  const canonical = `{"type":"toolCall","id":"${CALL}","name":"send","arguments":${args}}`;
  const usage = values();
  const details = values();
  const meta = values();
  return {
    canonicalize: {
      input: jsonl([header, user(meta), assistant(`{"type":"text","text":"Sending."},${legacy}`, usage), result('toolUseId', 'a0000002', details, text), reply]),
      expected: jsonl([header, user(meta), assistant(`{"type":"text","text":"Sending."},${canonical}`, usage), result('toolCallId', 'a0000002', details, text), reply]),
    },
    repair: {
      input: jsonl([header, user(meta), assistant(`{"type":"text","text":" "}, {"type":"text","text":"Sending."},${canonical}`, usage), result('toolCallId', 'gone0001', details, text), reply]),
      expected: jsonl([header, user(meta), assistant(`{"type":"text","text":"Sending."},${canonical}`, usage), result('toolCallId', 'a0000002', details, text), reply]),
    },
  };
}

/** A Claude Code session whose tool result must move before the text typed with it. */
function claudeCode(values) {
  const envelope = '"isSidechain":false,"userType":"external","cwd":"/workspace/demo","sessionId":"6e3d9b52-4c8f-4a2a-b7e1-9f3c5d0a2b48","version":"2.1.19"';
  const first = `{"parentUuid":null,${envelope},"type":"user","message":{"role":"user","content":"Run it."},"uuid":"c0de0001-5b2c-4d3e-9f40-6b6b00000001",${at(1)}}`;
  const call = `{"parentUuid":"c0de0001-5b2c-4d3e-9f40-6b6b00000001",${envelope},"type":"assistant","message":{"model":"claude-opus-4-5-20251101","id":"msg_01A","type":"message","role":"assistant","content":[{"type":"tool_use","id":"${CALL}","name":"Bash","input":{${values()}}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":1.0}},"uuid":"c0de0002-5b2c-4d3e-9f40-6b6b00000002",${at(2)}}`;
  const text = `{"type":"text","text":"and then the tests \\u2014 please"}`;
  const toolResult = `{"type":"tool_result","tool_use_id":"${CALL}","content":"ok","is_error":false,"meta":{${values()}}}`;
  const extra = values();
  const answer = (content) =>
    `{"parentUuid":"c0de0002-5b2c-4d3e-9f40-6b6b00000002",${envelope},"type":"user","message":{"role":"user","content":[${content}]},"uuid":"c0de0003-5b2c-4d3e-9f40-6b6b00000003",${at(3)},"toolUseResult":{${extra}}}`;
  // Answered, so the session does not end on a user turn (repair would add Claude Code's own closing turn).
  const done = `{"parentUuid":"c0de0003-5b2c-4d3e-9f40-6b6b00000003",${envelope},"type":"assistant","message":{"model":"claude-opus-4-5-20251101","id":"msg_01B","type":"message","role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}},"uuid":"c0de0004-5b2c-4d3e-9f40-6b6b00000004",${at(4)}}`;
  const input = jsonl([first, call, answer(`${text}, ${toolResult}`), done]);
  return { canonicalize: { input, expected: input }, repair: { input, expected: jsonl([first, call, answer(`${toolResult},${text}`), done]) } };
}

function cli(args) {
  const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: TIMEOUT_MS, env: { ...process.env, CI: '1', NO_COLOR: '1' } });
  return { code: run.status, error: run.error, stderr: run.stderr };
}

/** Where two texts part, as a short excerpt of each. */
function firstDifference(got, want) {
  let i = 0;
  while (i < got.length && got[i] === want[i]) i++;
  const excerpt = (s) => JSON.stringify(s.slice(Math.max(0, i - 30), i + 30));
  return `at char ${i}: ${excerpt(got)} instead of ${excerpt(want)}`;
}

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'td-harden-values-')));
let failed = false;

/** Writes each session, runs both commands on the folder, and compares every output with what it must be. */
function check(name, made) {
  const dir = path.join(tmp, name.replace(/\W+/g, '-'));
  const problems = [];
  let passed = 0;
  let total = 0;
  const seconds = [];
  for (const command of ['canonicalize', 'repair']) {
    const input = path.join(dir, command, 'in');
    const output = path.join(dir, command, 'out');
    fs.mkdirSync(input, { recursive: true });
    made.forEach((session, i) => fs.writeFileSync(path.join(input, `s${i}.jsonl`), session[command].input));
    const started = process.hrtime.bigint();
    fs.mkdirSync(output, { recursive: true });
    // With one input, --out names the output file itself.
    const run = cli([command, input, '--out', made.length === 1 ? path.join(output, 's0.jsonl') : output]);
    seconds.push(`${command} ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);
    if (run.error || run.code !== 0) problems.unshift(`${command} exited ${run.code ?? run.error?.message}: ${run.stderr.trim().split('\n').at(-1)}`);
    made.forEach((session, i) => {
      total += 1;
      const file = path.join(output, `s${i}.jsonl`);
      const got = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (got === session[command].expected) passed += 1;
      else problems.push(`${command} s${i}.jsonl ${got === '' ? 'not written' : firstDifference(got, session[command].expected)}`);
    });
  }
  const ok = problems.length === 0;
  failed ||= !ok;
  console.log(`harden values: ${name} byte-identical ${passed}/${total} ${ok ? 'ok' : 'FAIL'} (${ok ? seconds.join(', ') : problems.slice(0, 3).join('; ')})`);
}

try {
  for (const [name, values] of CASES) check(name, Array.from({ length: FILES_PER_CASE }, () => sessions(values)));
  const deep = () => `"deep":${'['.repeat(100_000)}${bigInt()}${']'.repeat(100_000)},"nested":${'{"a":'.repeat(100_000)}-0${'}'.repeat(100_000)}`;
  check('100k nesting', [sessions(deep)]);
  // A big tool output is rewritten because its result line is; escapes all through it must stay as written.
  const output = 'line of output \\u00e9 \\"quoted\\" \\/path\\n'.repeat(200_000);
  check(`${(output.length / 2 ** 20).toFixed(0)} MB line`, [sessions(CASES[0][1], output)]);
  check('claude-code reorder', Array.from({ length: FILES_PER_CASE }, () => claudeCode(pick(CASES)[1])));
} catch (error) {
  failed = true;
  console.log(`harden values: set-up 0/1 FAIL (${error instanceof Error ? error.message : String(error)})`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
