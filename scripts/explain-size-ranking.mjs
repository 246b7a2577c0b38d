// Measures how often `explain` names the right session first for a size error that quotes only a
// token count (the figures of docs/commands/explain.md, "Size errors are told apart by their
// figures"). For each session of the folder whose replayed request is estimated over `--over`
// tokens, it builds the error its provider would send for a request `--factor` times the high
// estimate (Anthropic's "prompt is too long: N tokens > W maximum", OpenAI's "maximum context
// length is W tokens. However, your messages resulted in N tokens", Gemini's "input token count
// (N) exceeds the maximum number of tokens allowed (W)"), runs explain's own search over the
// folder's newest sessions, and reports where the session ranks. Runs on the built dist/ (npm run
// build first).
//   node scripts/explain-size-ranking.mjs <folder> [--count high|estimate] [--factor 1.05] [--plus 0] [--over 20000] [--wording anthropic|family] [--json]
import { parseArgs } from 'node:util';
import { basename } from 'node:path';
import { findCandidates } from '../dist/explain/candidates.js';
import { locate } from '../dist/explain/locate.js';
import { recognise } from '../dist/explain/recognise.js';
import { analyze } from '../dist/model/analysis.js';
import { measureRequest } from '../dist/model/size/measure.js';
import { loadTranscriptFile } from '../dist/pipeline/load-file.js';
import { judgeSize } from '../dist/providers/size/index.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { count: { type: 'string', default: 'high' }, plus: { type: 'string', default: '0' }, factor: { type: 'string', default: '1.05' }, over: { type: 'string', default: '20000' }, wording: { type: 'string', default: 'anthropic' }, json: { type: 'boolean', default: false } },
});
if (positionals.length !== 1 || !['anthropic', 'family'].includes(values.wording) || !['high', 'estimate'].includes(values.count)) {
  console.error('usage: node scripts/explain-size-ranking.mjs <folder> [--count high|estimate] [--factor 1.05] [--plus 0] [--over 20000] [--wording anthropic|family] [--json]');
  process.exit(2);
}
const factor = Number(values.factor);
const over = Number(values.over);

/** The error the session's provider family sends for `tokens` over `window`. */
function errorText(model, tokens, window) {
  // OpenAI's wording is also what OpenAI-compatible servers (DeepSeek, vLLM, OpenRouter's routes) send.
  const family = values.wording === 'anthropic' || /claude/i.test(model ?? '') ? 'anthropic' : /gemini/i.test(model ?? '') ? 'gemini' : 'openai';
  if (family === 'openai') return `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`;
  if (family === 'gemini') return `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${window}).`;
  return `prompt is too long: ${tokens} tokens > ${window} maximum`;
}

const { files } = await findCandidates([positionals[0]]);
// Each session's figures, measured as explain measures them (against Anthropic's limits, as its error names).
const measured = new Map();
for (const file of files.slice(0, 100)) {
  const transcript = await loadTranscriptFile(file).catch(() => undefined);
  if (transcript?.format === undefined) continue;
  transcript.provider = 'anthropic';
  const analysis = analyze(transcript);
  const size = measureRequest(analysis);
  measured.set(file, { tokens: size.tokens.tokens, high: size.tokens.high, model: size.model, window: judgeSize(analysis, size).window?.tokens });
}
const rows = [];
for (const [file, m] of measured) {
  if (m.high <= over) continue;
  const tokens = Math.round((values.count === 'high' ? m.high : m.tokens) * factor + (values.count === 'high' ? 0 : Number(values.plus)));
  const window = m.window ?? 200_000;
  const search = await locate(recognise(errorText(m.model, tokens, window)), files);
  const rank = search.matches.findIndex((match) => match.file === file);
  rows.push({ file: basename(file), model: m.model ?? null, tokens, high: m.high, rank: rank === -1 ? null : rank + 1, of: search.matches.length, first: search.matches[0] === undefined ? null : basename(search.matches[0].file), score: search.matches[rank]?.score, firstScore: search.matches[0]?.score, firstMeasured: search.matches[0]?.measured, measured: search.matches[rank]?.measured });
}
const first = rows.filter((row) => row.rank === 1).length;
// Anthropic's wording for every session: only a Claude session can have had it.
const claude = rows.filter((row) => /claude/i.test(row.model ?? ''));
const claudeFirst = claude.filter((row) => row.rank === 1).length;
if (values.json) console.log(JSON.stringify({ sessions: rows.length, first, claude: claude.length, claudeFirst, rows }, null, 1));
else {
  for (const row of rows) console.log(`${row.rank === 1 ? '✔' : ' '} rank ${row.rank ?? '-'} of ${row.of}  ${row.tokens} quoted, ${row.high} high  ${row.model ?? '?'}  ${row.file.slice(0, 90)}`);
  console.log(`first for ${first} of ${rows.length} sessions over ${over} tokens (count ${factor}× the ${values.count === 'high' ? 'high estimate' : 'estimate'}${values.plus === '0' ? '' : ` + ${values.plus}`}, ${values.wording} wording)${values.wording === 'anthropic' ? `; ${claudeFirst} of the ${claude.length} on a Claude model` : ''}`);
}
