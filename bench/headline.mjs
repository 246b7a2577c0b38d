// The headline rows alone: node bench/headline.mjs [--runs N] [--requests]
// pi (scan and repair), Claude Code, Codex, Gemini CLI, Copilot CLI and Qwen Code real-shaped 128 MiB files, each against the parse
// baseline in the same run, as in `npm run bench` (bench/run.mjs). Minutes instead of the whole
// bench's half hour, for checking a change to the hot path; the README figures come from run.mjs.
// --requests adds the request / dataset row (100,000 conversations, scan and repair, as many runs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTranscript } from './generate.mjs';
import { childRunner, f2 } from './measure.mjs';
import { throughputRow } from './rows.mjs';
import { ensureClaudeCode } from './to-claude-code.mjs';
import { CODEX_GROWTH, ensureCodex } from './to-codex.mjs';
import { CLAUDE_CODE_GROWTH } from './projects.mjs';
import { GEMINI_GROWTH, ensureGemini } from './to-gemini.mjs';
import { ensureQwenCode, QWEN_GROWTH } from './to-qwen-code.mjs';
import { COPILOT_GROWTH, ensureCopilot } from './to-copilot.mjs';
import { ensureRequests } from './requests.mjs';

const MiB = 2 ** 20;
const at = process.argv.indexOf('--runs');
const runs = at === -1 ? 7 : Number(process.argv[at + 1]);
const bytes = 128 * MiB;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'td-headline-'));
try {
  const c = childRunner(tmp);
  const pi = await ensureTranscript(bytes, { shape: 'real' });
  const cc = await ensureClaudeCode((await ensureTranscript(Math.round(bytes / CLAUDE_CODE_GROWTH), { shape: 'real', seed: 2 })).file, { real: true });
  const cx = await ensureCodex((await ensureTranscript(Math.round(bytes / CODEX_GROWTH), { shape: 'real', seed: 3 })).file);
  const gm = await ensureGemini((await ensureTranscript(Math.round(bytes / GEMINI_GROWTH), { shape: 'real', seed: 4 })).file);
  const cp = await ensureCopilot((await ensureTranscript(Math.round(bytes / COPILOT_GROWTH), { shape: 'real', seed: 5 })).file);
  const qw = await ensureQwenCode((await ensureTranscript(Math.round(bytes / QWEN_GROWTH), { shape: 'real', seed: 4 })).file);
  console.log(`headline rows, ${runs} runs each, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const rows = {
    pi: await throughputRow(c, { title: 'pi, real-shaped', file: pi.file, bytes: pi.meta.bytes, lines: pi.meta.lines, meta: pi.meta, runs, repair: true }),
    claudeCode: await throughputRow(c, { title: 'Claude Code, real-shaped', file: cc.file, bytes: cc.bytes, lines: cc.lines, runs }),
    codex: await throughputRow(c, { title: 'Codex, real-shaped', file: cx.file, bytes: cx.bytes, lines: cx.lines, runs }),
    gemini: await throughputRow(c, { title: 'Gemini CLI, real-shaped', file: gm.file, bytes: gm.bytes, lines: gm.lines, runs }),
    copilot: await throughputRow(c, { title: 'Copilot CLI, real-shaped', file: cp.file, bytes: cp.bytes, lines: cp.lines, runs }),
    qwenCode: await throughputRow(c, { title: 'Qwen Code, real-shaped', file: qw.file, bytes: qw.bytes, lines: qw.lines, runs }),
  };
  if (process.argv.includes('--requests')) {
    const rq = await ensureRequests(100_000);
    const row = await throughputRow(c, { title: 'requests, 100000 conversations', file: rq.file, bytes: rq.bytes, lines: rq.lines, runs, repair: true });
    console.log(`\nrequests scan ${f2(row.ratio)} (≥ 0.6, ${row.scan.rssMiB} MiB, CPU time ${f2(row.cpuRatio)}), repair ${f2(row.repair.ratio)} (≥ 0.4, ${row.repair.rssMiB} MiB, CPU time ${f2(row.repair.cpuRatio)})`);
  }
  console.log(`\nCPU time ratios: ${Object.entries(rows).map(([name, row]) => `${name} ${f2(row.cpuRatio)}`).join(', ')}, pi repair ${f2(rows.pi.repair.cpuRatio)}`);
  console.log(`\npi scan ${f2(rows.pi.ratio)} (≥ 0.8), pi repair ${f2(rows.pi.repair.ratio)} (≥ 0.5), Claude Code scan ${f2(rows.claudeCode.ratio)} (≥ 0.8), Codex scan ${f2(rows.codex.ratio)}, Gemini CLI scan ${f2(rows.gemini.ratio)} (${rows.gemini.scan.rssMiB} MiB), Copilot CLI scan ${f2(rows.copilot.ratio)} (${rows.copilot.scan.rssMiB} MiB), Qwen Code scan ${f2(rows.qwenCode.ratio)} (${rows.qwenCode.scan.rssMiB} MiB); load average after ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
