import { describe, expect, it } from 'vitest';
import { assistant, jsonl, line, meta, resetClock, turnContext, user, type Line } from '../formats/codex/rollout.js';
import { ESTIMATORS } from '../../src/model/size/estimate.js';
import { longText, slimText } from './slim-session.js';

const shell = (id: string, command: string): Line => line('response_item', { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command }), call_id: id });
const shellOutput = (id: string, text: string): Line => line('response_item', { type: 'function_call_output', call_id: id, output: text });
const tokens = (last: number, total: number): Line =>
  line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: total, total_tokens: total }, last_token_usage: { input_tokens: last, total_tokens: last }, model_context_window: 258_400 } });

/** A rollout whose turns each read a long file, with the usage Codex recorded after each (the last counting all of them). */
function rollout(turns: number, prompt = (t: number) => `request ${t}`): string {
  resetClock();
  const lines: Line[] = [meta()];
  let total = 0;
  for (let t = 0; t < turns; t++) {
    const last = 30_000 * (t + 1);
    total += last;
    lines.push(turnContext(), user(prompt(t)), shell(`call_${t}`, `cat src/part-${t}.rs`), shellOutput(`call_${t}`, longText(3000, `t${t}`)), assistant(`answer ${t}`), tokens(last, total));
  }
  return jsonl(lines);
}

const tokenCounts = (lines: Array<Record<string, any>>) => lines.filter((value) => value.type === 'event_msg' && value.payload.type === 'token_count');

describe('slim on a Codex rollout whose recorded usage counted the history it trims', () => {
  it('appends a token_count with the new size, and a second run measures that and changes nothing', async () => {
    const original = rollout(6);
    const first = await slimText(original, { target: { tokens: 40_000 }, keepTurns: 1 });
    expect(first.report.slim?.fits).toBe(true);
    const counts = tokenCounts(first.lines);
    expect(counts).toHaveLength(7);
    const recount = counts.at(-1)!;
    // The last line: Codex reads the last token_count on resume.
    expect(first.lines.at(-1)).toEqual(recount);
    expect(recount.payload.info.last_token_usage.input_tokens).toBeLessThanOrEqual(40_000);
    // The recorded figures stay: cumulative usage and the window are copied, every earlier count is as it was.
    expect(recount.payload.info.total_token_usage).toEqual(counts[5]!.payload.info.total_token_usage);
    expect(recount.payload.info.model_context_window).toBe(258_400);
    expect(counts.slice(0, 6)).toEqual(tokenCounts(original.trimEnd().split('\n').map((row) => JSON.parse(row))));
    const second = await slimText(first.output, { target: { tokens: 40_000 }, keepTurns: 1 });
    expect(second.report.slim?.before.tokens).toBeLessThanOrEqual(40_000);
    expect(second.output).toBe(first.output);
  });

  it('is idempotent at a small target, where slim compacts', async () => {
    const first = await slimText(rollout(6), { target: { tokens: 2_000 } });
    expect(first.lines.some((value) => value.type === 'compacted')).toBe(true);
    const second = await slimText(first.output, { target: { tokens: 2_000 } });
    expect(second.output).toBe(first.output);
  });

  it('does not compact an earlier compaction alone again (its summary would be clipped, and again on every run)', async () => {
    // Long prompts: the first summary, which keeps every one, is larger than a summary of it would be.
    const first = await slimText(rollout(12, (t) => `request ${t}: ${longText(40, `p${t}`)}`), { target: { tokens: 2_000 } });
    expect(first.lines.filter((value) => value.type === 'compacted')).toHaveLength(1);
    const second = await slimText(first.output, { target: { tokens: 2_000 } });
    expect(second.lines.filter((value) => value.type === 'compacted')).toHaveLength(1);
    expect(second.output).toBe(first.output);
  });

  it('writes no token_count when nothing before the last usage changed', async () => {
    const original = rollout(2);
    const { output } = await slimText(original);
    expect(output).toBe(original);
  });

  /**
   * Usage that counts each turn's read at 4 bytes a token (what the OpenAI estimator says), and a
   * last turn after the last usage (estimated, with the margin): slim's edits to history the usage
   * counted are estimates too, so the request after slim must fit with the estimator's margin.
   */
  function countedRollout(turns: number): { text: string; recorded: number } {
    resetClock();
    const lines: Line[] = [meta()];
    let context = 0;
    let total = 0;
    for (let t = 0; t < turns; t++) {
      const output = longText(3000, `t${t}`);
      context += Math.ceil(output.length / 4);
      total += context;
      lines.push(turnContext(), user(`request ${t}`), shell(`call_${t}`, `cat src/part-${t}.rs`), shellOutput(`call_${t}`, output), assistant(`answer ${t}`), tokens(context, total));
    }
    lines.push(turnContext(), user('request last'), shell('call_last', 'cat src/last.rs'), shellOutput('call_last', longText(600, 'last')));
    return { text: jsonl(lines), recorded: context };
  }

  it('gets under the target with the margin on what it took out, and writes its high bound, which a second run keeps', async () => {
    const target = 120_000;
    const margin = ESTIMATORS.openai!.margin;
    const { text, recorded } = countedRollout(8);
    const first = await slimText(text, { target: { tokens: target }, keepTurns: 1 });
    const slim = first.report.slim!;
    expect(slim.fits).toBe(true);
    expect(slim.before.high - slim.before.tokens).toBeGreaterThan(1000);
    const second = await slimText(first.output, { target: { tokens: target }, keepTurns: 1 });
    const after = second.report.slim!.before;
    // What slim took out, at the estimator's 4 bytes a token, counted at its low bound (less the
    // margin): the recorded count less that, plus the estimated rest, is still under the target.
    const removed = (slim.before.bytes - after.bytes) / 4;
    const following = slim.before.high - recorded;
    expect(recorded - removed / (1 + margin) + following).toBeLessThanOrEqual(target);
    // The recount holds the planner's high bound, not its central estimate, less the body's JSON
    // framing (no part of a provider's count): the file ends with the last turn's result, so it
    // counts all that is sent, and measuring the output adds the framing back, giving that bound.
    const recount = tokenCounts(first.lines).at(-1)!;
    expect(first.lines.at(-1)).toEqual(recount);
    expect(recount.payload.info.last_token_usage.input_tokens).toBe(after.tokens);
    const framing = after.high - after.tokens;
    expect(framing).toBeGreaterThan(0);
    expect(framing % ESTIMATORS.openai!.framing).toBe(0);
    expect(after.high).toBeLessThanOrEqual(target);
    expect(second.output).toBe(first.output);
  });
});
