// Measures token estimators against the usage real sessions recorded (the figures of
// docs/size.md, "How tokens are estimated"). Between two consecutive usages on a session's
// replayed path, the growth of recorded input (input + cache read + cache write) is the real
// token count of what was added: the response that recorded the first, the results and prompts
// after it. Each candidate estimates the same entries from the size facts the decoders noted.
// Sessions written against a scripted model (a folder with captured-requests.ndjson) record no
// real counts and are left out. Runs on the built dist/ (npm run build first).
//   node scripts/calibrate-tokens.mjs <corpus folder> [--fit] [--json]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { loadBytes } from '../dist/pipeline/load-transcript.js';
import { analyze } from '../dist/model/analysis.js';
import { entrySize } from '../dist/model/size/facts.js';
import { documentTokens, ESTIMATORS, estimatorFor, imageTokens, textTokens, TOKEN_ESTIMATOR } from '../dist/model/size/estimate.js';
import { measureRequest, usageAnchors } from '../dist/model/size/measure.js';

const args = process.argv.slice(2);
const root = args.find((arg) => !arg.startsWith('--'));
if (root === undefined) {
  console.error('usage: node scripts/calibrate-tokens.mjs <corpus folder> [--fit] [--json]');
  process.exit(2);
}
const KINDS = ['text', 'thinking', 'toolCall', 'toolResult', 'other'];
/** Deltas smaller than this are mostly framing and cache noise: reported apart, not fitted. */
const SMALL = 200;

function* files(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.jsonl?($|\.)/.test(name) && !name.endsWith('.ndjson')) yield path;
  }
}

/** A file some folder above of which holds the requests a scripted model captured. */
function scripted(path) {
  for (let dir = dirname(path); dir.length > root.length; dir = dirname(dir)) if (existsSync(join(dir, 'captured-requests.ndjson'))) return true;
  return false;
}

/** What the entries at context positions from … to - 1 hold, by kind, with their messages and media tokens. */
function tally(analysis, from, to) {
  const store = analysis.entries;
  const { indices, messageIndex } = analysis.replay.context;
  const row = { bytes: Object.fromEntries(KINDS.map((kind) => [kind, 0])), messages: 0, media: 0 };
  let last = -1;
  for (let at = from; at < to; at++) {
    const message = messageIndex[at];
    if (message === -1) continue;
    if (message !== last) {
      row.messages += 1;
      last = message;
    }
    const i = indices[at];
    const { parts } = entrySize(store, i);
    for (const kind of KINDS) row.bytes[kind] += parts[kind] ?? 0;
    const rare = store.rare.get(i);
    for (const image of rare?.images ?? []) row.media += imageTokens(image.width, image.height);
    for (const document of rare?.documents ?? []) row.media += documentTokens(document.pages, document.bytes);
  }
  return row;
}

function estimate(estimator, row) {
  estimator ??= row.chosen;
  let tokens = row.media + row.messages * estimator.perMessage;
  for (const kind of KINDS) tokens += textTokens(kind, row.bytes[kind], estimator);
  return tokens;
}

const rows = [];
let sessions = 0;
let skippedScripted = 0;
let dropped = 0;
for (const path of files(root)) {
  if (scripted(path)) {
    skippedScripted += 1;
    continue;
  }
  let transcript;
  try {
    transcript = loadBytes(readFileSync(path), undefined, undefined, path);
  } catch {
    continue;
  }
  if (transcript.format === undefined) continue;
  const analysis = analyze(transcript);
  const anchors = usageAnchors(analysis);
  if (anchors.length < 2) continue;
  sessions += 1;
  const model = measureRequest(analysis).model;
  const chosen = estimatorFor(model, transcript.format);
  const family = Object.entries(ESTIMATORS).find(([, estimator]) => estimator === chosen)[0];
  for (let n = 1; n < anchors.length; n++) {
    const before = anchors[n - 1];
    const after = anchors[n];
    if (after.from <= before.from) continue;
    const real = after.tokens - before.tokens;
    // A drop: the provider's cache or the agent's own trimming changed what was counted.
    if (real < 0) dropped += 1;
    if (real <= 0) continue;
    rows.push({ agent: transcript.format, family, chosen, file: relative(root, path), real, ...tally(analysis, before.from, after.from) });
  }
}

/** Per-kind tokens per byte and tokens per message, fitted to the deltas (least squares on relative error, none below zero). */
function fit(data) {
  const x = { ...Object.fromEntries(KINDS.map((kind) => [kind, 1 / TOKEN_ESTIMATOR.bytesPerToken[kind]])), message: TOKEN_ESTIMATOR.perMessage };
  const features = (row) => ({ ...row.bytes, message: row.messages });
  const keys = [...KINDS, 'message'];
  for (let round = 0; round < 200; round++) {
    for (const key of keys) {
      let numerator = 0;
      let denominator = 0;
      for (const row of data) {
        const f = features(row);
        if (f[key] === 0) continue;
        let rest = row.media;
        for (const other of keys) if (other !== key) rest += x[other] * f[other];
        const weight = 1 / row.real;
        numerator += weight * f[key] * (row.real - rest);
        denominator += weight * f[key] * f[key];
      }
      if (denominator > 0) x[key] = Math.max(0, numerator / denominator);
    }
  }
  return {
    name: 'fitted',
    bytesPerToken: Object.fromEntries(KINDS.map((kind) => [kind, x[kind] > 0 ? Number((1 / x[kind]).toFixed(2)) : 1e9])),
    perMessage: Number(x.message.toFixed(1)),
    margin: 0,
  };
}

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))];
}

const pct = (value) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;

function report(estimator, data) {
  const real = data.reduce((sum, row) => sum + row.real, 0);
  const estimated = data.reduce((sum, row) => sum + estimate(estimator, row), 0);
  const errors = data.filter((row) => row.real >= SMALL).map((row) => estimate(estimator, row) / row.real - 1).sort((a, b) => a - b);
  const covered = data.filter((row) => row.real >= SMALL && estimate(estimator, row) * (1 + (estimator ?? row.chosen).margin) >= row.real).length / Math.max(1, errors.length);
  return { deltas: data.length, real, bias: estimated / real - 1, covered, median: quantile(errors, 0.5), p10: quantile(errors, 0.1), p5: quantile(errors, 0.05), p90: quantile(errors, 0.9) };
}

const candidates = { ...ESTIMATORS, chosen: undefined };
const families = [...new Set(rows.map((row) => row.family))].sort();
if (args.includes('--fit')) for (const family of families) candidates[`fit:${family}`] = fit(rows.filter((row) => row.real >= SMALL && row.family === family));
const agents = [...new Set(rows.map((row) => row.agent))].sort();
const results = {};
for (const [name, estimator] of Object.entries(candidates)) {
  const own = name.startsWith('fit:') ? rows.filter((row) => row.family === name.slice(4)) : name in ESTIMATORS && !name.startsWith('bytes') ? rows.filter((row) => row.family === name) : rows;
  results[name] = { all: report(estimator, own) };
  for (const family of families) if (name.startsWith('bytes') || name === 'chosen') results[name][`[${family}]`] = report(estimator, rows.filter((row) => row.family === family));
  for (const agent of agents) results[name][agent] = report(estimator, own.filter((row) => row.agent === agent));
}
if (args.includes('--json')) {
  console.log(JSON.stringify({ sessions, skippedScripted, dropped, candidates, results }, null, 2));
} else {
  console.log(`${sessions} sessions with recorded usage, ${rows.length} deltas (${dropped} drops left out; ${skippedScripted} scripted-model files skipped)`);
  for (const [name, estimator] of Object.entries(candidates)) if (name.startsWith('fit:')) console.log(name, JSON.stringify(estimator));
  for (const [name, byAgent] of Object.entries(results)) {
    for (const [agent, r] of Object.entries(byAgent)) {
      console.log(`${name.padEnd(12)} ${agent.padEnd(12)} n=${String(r.deltas).padStart(5)} real=${String(r.real).padStart(8)} bias ${pct(r.bias).padStart(7)}  per delta ≥${SMALL}: median ${pct(r.median)} p10 ${pct(r.p10)} p5 ${pct(r.p5)} p90 ${pct(r.p90)}  covered by the margin ${(r.covered * 100).toFixed(0)}%`);
    }
  }
}
if (args.includes('--worst')) {
  const worst = rows.map((row) => ({ ...row, est: estimate(undefined, row) })).sort((a, b) => (b.real - b.est) - (a.real - a.est)).slice(0, 12);
  for (const row of worst) console.log(row.family, row.real, row.est, row.messages, JSON.stringify(row.bytes), row.file.slice(0, 90));
}
