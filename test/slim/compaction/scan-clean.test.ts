import { describe, expect, it } from 'vitest';
import { answer, calling, context, jsonl as geminiJsonl, metadata, resetClock as resetGemini, user as geminiUser, type Line } from '../../formats/gemini-cli/session.js';
import { assistant, jsonl as codexJsonl, line, meta, output, reasoning, resetClock as resetCodex, turnContext, user as codexUser } from '../../formats/codex/rollout.js';
import { Session as CopilotSession } from '../../formats/copilot-cli/session.js';
import { QwenSession } from '../../formats/qwen-code/session.js';
import { call, Session as PiSession, text } from '../../helpers/session.js';
import { scanText } from '../../helpers/scan-text.js';
import { compact } from './compact.js';
import { claudeCodeSession } from './sessions.js';

function pi(): string {
  const s = new PiSession();
  for (let n = 0; n < 4; n++) s.user(`request ${n}`).calls(call(`read_${n}`)).result(`read_${n}`).assistant([text(`answer ${n}`)]);
  return s.jsonl();
}

function codex(): string {
  resetCodex();
  const lines = [meta()];
  for (let t = 0; t < 4; t++) lines.push(turnContext(), codexUser(`request ${t}`), reasoning(), line('response_item', { type: 'function_call', name: 'shell_command', arguments: '{"command":"ls"}', call_id: `call_${t}` }), output('function', `call_${t}`), assistant(`answer ${t}`));
  return codexJsonl(lines);
}

function qwen(): string {
  const s = new QwenSession();
  for (let t = 0; t < 4; t++) {
    s.user(`request ${t}`);
    s.calls([`call_${t}`]);
    s.result(`call_${t}`);
    s.answer(`answer ${t}`);
  }
  return s.text();
}

function gemini(): string {
  resetGemini();
  const lines: Line[] = [metadata(), context()];
  for (let t = 0; t < 4; t++) lines.push(geminiUser(`u${t}`, `request ${t}`), calling(`g${t}`, [{ id: `c${t}`, name: 'ls', output: 'x' }]), answer(`a${t}`, `answer ${t}`));
  return geminiJsonl(lines);
}

function copilot(): string {
  const s = new CopilotSession();
  for (let t = 0; t < 4; t++) s.user(`request ${t}`).turn('', [{ id: `call_${t}`, name: 'bash', output: 'ok' }]).turn(`answer ${t}`);
  return s.text();
}

const findings = async (jsonl: string) => (await scanText(jsonl)).map((finding) => `${finding.rule} ${finding.severity}`).sort();

/**
 * Claude Code's history before a boundary stays in the file as a branch nothing replays, judged
 * as an abandoned branch, where results beside the chain (parallel calls) are not counted: scan
 * warns about those calls, as it does on a file Claude Code compacted itself (the corpus's
 * compacted session has three such warnings). Those warnings, and only those, are set aside.
 */
const replayedFindings = async (jsonl: string) =>
  (await scanText(jsonl)).filter((finding) => !finding.message.includes('(abandoned branch)')).map((finding) => `${finding.rule} ${finding.severity}`).sort();

describe.each([
  ['pi', pi, 8, findings],
  ['claude-code', () => claudeCodeSession(4), 12, replayedFindings],
  ['codex', codex, 10, findings],
  ['qwen-code', qwen, 8, findings],
  ['gemini-cli', gemini, 7, findings],
  ['copilot-cli', copilot, 8, findings],
] as const)('a %s compaction', (_format, make, wanted, judged) => {
  it('leaves the file with no finding scan did not already make', async () => {
    const original = make();
    const { text: written } = await compact(original, wanted);
    expect(written).not.toBe(original);
    expect(await judged(written)).toEqual(await findings(original));
  });
});
